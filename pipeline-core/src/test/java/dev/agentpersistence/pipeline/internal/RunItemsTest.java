package dev.agentpersistence.pipeline.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.queue.QueueItem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline's queue in the store's native queue, over a real SQLite file: runs a log put there before native queues
 * are read and changed where they are, new runs go to items, a writer that read a run before another changed it decides
 * again on what the other wrote, and an item that is not a run is a typed error naming it.
 */
class RunItemsTest {
    @TempDir
    Path dir;

    private PersistenceStorageProvider<?> sqlite() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("queue.db"))
                        .build())
                .build();
    }

    private static RunQueue.Decision<Boolean> submit(Optional<RunQueue.Run> run, int input) {
        return run.isPresent()
                ? RunQueue.Decision.keep(false)
                : RunQueue.Decision.append(
                        new RunQueue.Change(RunQueue.Kind.SUBMITTED, IntNode.valueOf(input), 0, null, null), true);
    }

    private static RunQueue.Decision<Boolean> cancel(Optional<RunQueue.Run> run) {
        return run.isEmpty() || RunQueue.isFinished(run.get().status())
                ? RunQueue.Decision.keep(false)
                : RunQueue.Decision.append(new RunQueue.Change(RunQueue.Kind.CANCELLED, null, 0, null, "test"), true);
    }

    @Test
    void runsOfTheLogStayInTheLogAndNewRunsGoToItems() {
        try (var store = sqlite()) {
            var log = new RunQueue(store, "jobs", Clock.systemUTC());
            assertThat(log.<Boolean>update("old", run -> submit(run, 1))).isTrue();
            RunStore queue = RunStore.of(store, "jobs", Clock.systemUTC());
            assertThat(queue).isInstanceOf(RunItems.class);
            assertThat(queue.<Boolean>update("old", run -> submit(run, 9)))
                    .as("submitted before, in the log")
                    .isFalse();
            assertThat(queue.<Boolean>update("new", run -> submit(run, 2))).isTrue();
            assertThat(queue.runs()).extracting(RunQueue.Run::runId).containsExactly("old", "new");
            assertThat(queue.runnable(Instant.now()))
                    .extracting(RunQueue.Run::runId)
                    .containsExactly("old", "new");

            assertThat(queue.update("old", RunItemsTest::cancel)).isTrue();
            assertThat(log.run("old").orElseThrow().status()).isEqualTo(RunQueue.Kind.CANCELLED);
            assertThat(store.queues().orElseThrow().item(log.agentId(), "old")).isEmpty();
            assertThat(queue.update("new", RunItemsTest::cancel)).isTrue();
            assertThat(log.run("new")).as("a new run never reaches the log").isEmpty();
            assertThat(queue.run("new").orElseThrow().status()).isEqualTo(RunQueue.Kind.CANCELLED);
            assertThat(queue.runnable(Instant.now())).isEmpty();
            assertThat(queue.update("new", RunItemsTest::cancel))
                    .as("already finished")
                    .isFalse();
        }
    }

    @Test
    void aWriterWhoseReadWasOvertakenDecidesAgainOnWhatTheOtherWrote() {
        try (var store = sqlite();
                var other = sqlite()) {
            RunStore queue = RunStore.of(store, "jobs", Clock.systemUTC());
            RunStore otherQueue = RunStore.of(other, "jobs", Clock.systemUTC());
            queue.<Boolean>update("r", run -> submit(run, 1));
            int[] decisions = {0};
            boolean cancelled = queue.update("r", run -> {
                if (decisions[0]++ == 0) {
                    // another process cancels the run between this writer's read and its write
                    assertThat(otherQueue.update("r", RunItemsTest::cancel)).isTrue();
                }
                return cancel(run);
            });
            assertThat(cancelled)
                    .as("the second decision sees the run cancelled")
                    .isFalse();
            assertThat(decisions[0]).isEqualTo(2);
            assertThat(queue.run("r").orElseThrow().version()).isEqualTo(2);
        }
    }

    @Test
    void anItemThatIsNotARunIsATypedErrorNamingIt() {
        try (var store = sqlite()) {
            RunStore queue = RunStore.of(store, "jobs", Clock.systemUTC());
            String name = new RunQueue(store, "jobs", Clock.systemUTC()).agentId();
            byte[] planted = "{\"no\":\"status\"}".getBytes(StandardCharsets.UTF_8);
            store.queues()
                    .orElseThrow()
                    .write(name, new QueueItem("planted", 1, Instant.now(), Instant.now(), false, planted));
            assertThatThrownBy(queue::runs)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("planted")
                    .hasMessageContaining("status");
        }
    }
}
