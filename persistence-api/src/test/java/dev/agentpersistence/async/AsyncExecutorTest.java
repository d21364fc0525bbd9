package dev.agentpersistence.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointConflictException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bounded executor behind the async views: threads, back-pressure, cancellation, errors. */
@Timeout(30)
class AsyncExecutorTest {
    private final AsyncExecutor executor = AsyncExecutor.create(2, 1);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() {
        release.countDown();
        executor.close();
    }

    private CompletableFuture<String> blocked(String name) {
        return executor.submit(name, () -> {
            release.await();
            return name;
        });
    }

    @Test
    void callsRunOffTheCallersThreadOnVirtualThreadsWhenTheJvmHasThem() {
        String caller = Thread.currentThread().getName();
        String worker = executor.submit("thread", () -> Thread.currentThread().getName())
                .join();

        assertThat(worker).isNotEqualTo(caller);
        assertThat(executor.usesVirtualThreads()).isEqualTo(Runtime.version().feature() >= 21);
        if (!executor.usesVirtualThreads()) {
            assertThat(worker).startsWith("agent-persistence-async-");
        }
    }

    @Test
    void moreCallsThanRunningPlusQueuedAreRejectedAtOnceAndAdmittedAgainLater() {
        var first = blocked("a");
        var second = blocked("b");
        var queued = blocked("c");

        var refused = blocked("d");

        assertThat(refused).isCompletedExceptionally();
        assertThatThrownBy(refused::join)
                .hasCauseInstanceOf(AsyncRejectedException.class)
                .hasMessageContaining("d refused: 2 calls running and 1 queued");
        release.countDown();
        assertThat(CompletableFuture.allOf(first, second, queued)
                        .thenApply(v -> queued.join())
                        .join())
                .isEqualTo("c");
        assertThat(executor.submit("e", () -> "e").join()).isEqualTo("e");
    }

    @Test
    void cancellingARunningCallInterruptsItAndAQueuedOneNeverRuns() throws Exception {
        var started = new CountDownLatch(2);
        var interrupted = new CountDownLatch(1);
        var queuedRan = new AtomicBoolean();
        CompletableFuture<String> running = executor.submit("running", () -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
                return "slept";
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });
        var other = executor.submit("other", () -> {
            started.countDown();
            release.await();
            return "other";
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<String> queued = executor.submit("queued", () -> {
            queuedRan.set(true);
            return "queued";
        });

        assertThat(queued.cancel(true)).isTrue();
        assertThat(running.cancel(true)).isTrue();

        assertThat(interrupted.await(10, TimeUnit.SECONDS))
                .as("the running call was interrupted")
                .isTrue();
        assertThatThrownBy(running::join).isInstanceOf(CancellationException.class);
        release.countDown();
        assertThat(other.join()).isEqualTo("other");
        assertThat(executor.submit("after", () -> "after").join()).isEqualTo("after");
        assertThat(queuedRan)
                .as("a call cancelled before it started never runs")
                .isFalse();
    }

    @Test
    void aFutureFailsWithExactlyTheExceptionTheCallThrew() {
        var conflict = new CheckpointConflictException("agent-1", "cp-1", 3, "version 3 is taken");
        var future = executor.submit("conflict", () -> {
            throw conflict;
        });

        assertThatThrownBy(future::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .isSameAs(conflict);
        assertThatThrownBy(future::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isSameAs(conflict);
    }

    @Test
    void aClosedExecutorRejectsCalls() {
        executor.close();

        assertThatThrownBy(() -> executor.submit("late", () -> "x").join())
                .hasCauseInstanceOf(AsyncRejectedException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void limitsAreChecked() {
        assertThatThrownBy(() -> AsyncExecutor.create(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AsyncExecutor.create(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
