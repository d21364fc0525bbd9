package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.async.AsyncExecutor;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pipeline runs that do not block the caller: futures of results, and cancellation that interrupts the run. */
@Timeout(60)
class AsyncRunTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final AsyncExecutor executor = AsyncExecutor.create(4, 16);
    private final CountDownLatch inSlowNode = new CountDownLatch(1);
    private final RecordingListener events = new RecordingListener();
    private final Map<String, String> runThreads = new ConcurrentHashMap<>();

    private final Pipeline<String> pipeline = Pipeline.builder("async", StateCodec.jackson(String.class))
            .storage(storage)
            .listener(events)
            .node(Node.of("first", ctx -> {
                runThreads.put(ctx.state(), Thread.currentThread().getName());
                return ctx.state() + " first";
            }))
            .node(Node.of("slow", ctx -> {
                if (ctx.state().startsWith("slow")) {
                    inSlowNode.countDown();
                    Thread.sleep(60_000);
                }
                return ctx.state() + " slow";
            }))
            .build();

    @AfterEach
    void close() {
        executor.close();
        storage.close();
    }

    @Test
    void runsCompleteOnTheExecutorWhileTheCallerGoesOn() {
        String caller = Thread.currentThread().getName();
        var futures = new ArrayList<CompletableFuture<PipelineResult<String>>>();
        for (int i = 0; i < 6; i++) {
            futures.add(pipeline.runAsync("run-" + i, "in-" + i, executor));
        }

        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();

        for (int i = 0; i < futures.size(); i++) {
            assertThat(futures.get(i).join().state()).isEqualTo("in-" + i + " first slow");
            assertThat(runThreads.get("in-" + i))
                    .as("the thread that ran run-" + i)
                    .isNotNull()
                    .isNotEqualTo(caller);
        }
    }

    @Test
    void cancellingARunInterruptsItAndItsCheckpointsLetItResumeLater() throws Exception {
        var future = pipeline.runAsync("cancelled", "slow", executor);
        assertThat(inSlowNode.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(future.cancel(true)).isTrue();

        assertThat(future).isCancelled();
        var finished = awaitRunFinished();
        assertThat(finished.failure().reason()).isEqualTo(PipelineFailure.Reason.INTERRUPTED);
        assertThat(finished.failure().node()).isEqualTo("slow");
        var resumed = resume();
        assertThat(resumed.resumedAfter()).contains("first");
        assertThat(resumed.isCompleted()).isTrue();
    }

    /** The interrupted run ends on the executor thread after the future was cancelled. */
    private PipelineEvent.RunFinished awaitRunFinished() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            var finished = events.of(PipelineEvent.RunFinished.class);
            if (!finished.isEmpty()) {
                return finished.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the cancelled run did not finish: " + events.names());
    }

    private PipelineResult<String> resume() {
        var noSleep = Pipeline.builder("async", StateCodec.jackson(String.class))
                .storage(storage)
                .node(Node.of("first", ctx -> {
                    runThreads.put(ctx.state(), Thread.currentThread().getName());
                    return ctx.state() + " first";
                }))
                .node(Node.of("slow", ctx -> ctx.state() + " slow"))
                .build();
        return noSleep.runAsync("cancelled", "ignored", executor).join();
    }
}
