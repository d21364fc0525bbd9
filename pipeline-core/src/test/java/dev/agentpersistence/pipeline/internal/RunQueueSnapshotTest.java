package dev.agentpersistence.pipeline.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue's log over a real store: readers in other "processes" (other stores over one SQLite file) that follow it
 * incrementally, or start from its newest snapshot, see the same runs as a writer; the log is trimmed behind its
 * snapshots; a log written before snapshots existed still reads; and the finished runs kept are bounded.
 */
class RunQueueSnapshotTest {
    @TempDir
    Path dir;

    private PersistenceStorageProvider<?> sqlite() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("queue.db"))
                        .build())
                .build();
    }

    @Test
    void readersFollowingTheLogOrStartingFromASnapshotSeeWhatTheWriterSees() {
        try (var writerStore = sqlite();
                var followerStore = sqlite();
                var lateStore = sqlite()) {
            var writer = new RunQueue(writerStore, "jobs", Clock.systemUTC());
            var follower = new RunQueue(followerStore, "jobs", Clock.systemUTC());
            for (int i = 0; i < 150; i++) {
                submit(writer, "run-" + i);
                if (i % 3 == 0) {
                    cancel(writer, "run-" + (i / 2));
                }
                if (i % 5 == 0) {
                    assertThat(follower.runs())
                            .as("after %d submissions", i + 1)
                            .isEqualTo(writer.runs());
                }
            }
            List<RunQueue.Run> expected = writer.runs();
            assertThat(expected).hasSize(150);
            assertThat(follower.runs()).isEqualTo(expected);
            assertThat(new RunQueue(lateStore, "jobs", Clock.systemUTC()).runs())
                    .isEqualTo(expected);

            List<AgentCheckpoint> stored = writerStore.getCheckpoints(writer.agentId());
            long head = stored.get(stored.size() - 1).version();
            assertThat(head)
                    .as("150 submissions, 50 cancellations and their snapshots")
                    .isGreaterThan(200);
            assertThat(stored.size())
                    .as("entries kept: from the snapshot before the newest one")
                    .isLessThanOrEqualTo(2 * RunQueue.SNAPSHOT_EVERY + 2);
            assertThat(stored.get(0).nodeId()).isEqualTo("snapshot");
        }
    }

    @Test
    void aLogWrittenBeforeSnapshotsReadsAsBefore() {
        try (var store = sqlite()) {
            var queue = new RunQueue(store, "legacy", Clock.systemUTC());
            // the stored form of earlier versions: one entry per version, no snapshot
            save(store, queue.agentId(), 0, "SUBMITTED", "a", Map.of());
            save(store, queue.agentId(), 1, "SUBMITTED", "b", Map.of());
            save(store, queue.agentId(), 2, "SUBMITTED", "a", Map.of()); // a duplicate submission counts once
            save(store, queue.agentId(), 3, "RETRY", "b", Map.of("queue.notBefore", "2030-01-01T00:00:00Z"));
            save(store, queue.agentId(), 4, "COMPLETED", "a", Map.of());
            assertThat(queue.runs()).extracting(RunQueue.Run::runId).containsExactly("a", "b");
            assertThat(queue.run("a").orElseThrow().status()).isEqualTo(RunQueue.Kind.COMPLETED);
            RunQueue.Run b = queue.run("b").orElseThrow();
            assertThat(b.status()).isEqualTo(RunQueue.Kind.RETRY);
            assertThat(b.notBefore()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
            assertThat(b.input()).isEqualTo(IntNode.valueOf(1));
            cancel(queue, "b");
            assertThat(store.getLatestCheckpoint(queue.agentId()).orElseThrow().version())
                    .isEqualTo(5);
        }
    }

    @Test
    void theQueueKeepsTheNewestThousandFinishedRuns() {
        try (var store = PersistenceStorageProviders.load("inmemory", ProviderConfig.empty())) {
            var queue = new RunQueue(store, "many", Clock.systemUTC());
            for (int i = 0; i < QueueFold.MAX_FINISHED + 100; i++) {
                submit(queue, "run-" + i);
                cancel(queue, "run-" + i);
            }
            submit(queue, "open");
            List<RunQueue.Run> runs = queue.runs();
            assertThat(runs).hasSize(QueueFold.MAX_FINISHED + 1);
            assertThat(runs.get(0).runId()).isEqualTo("run-100");
            assertThat(runs.get(runs.size() - 1).runId()).isEqualTo("open");
            assertThat(new RunQueue(store, "many", Clock.systemUTC()).runs()).isEqualTo(runs);
        }
    }

    private static void submit(RunQueue queue, String runId) {
        queue.update(
                runId,
                run -> RunQueue.Decision.append(
                        new RunQueue.Change(RunQueue.Kind.SUBMITTED, IntNode.valueOf(runId.length()), 0, null, null),
                        true));
    }

    private static void cancel(RunQueue queue, String runId) {
        queue.update(
                runId,
                run -> run.isEmpty() || RunQueue.isFinished(run.get().status())
                        ? RunQueue.Decision.keep(false)
                        : RunQueue.Decision.append(
                                new RunQueue.Change(RunQueue.Kind.CANCELLED, null, 0, null, "test"), true));
    }

    private static void save(
            PersistenceStorageProvider<?> store,
            String agentId,
            long version,
            String kind,
            String runId,
            Map<String, String> more) {
        var metadata = new HashMap<>(more);
        metadata.put("queue.kind", kind);
        metadata.put("queue.run", runId);
        metadata.put("queue.attempt", "0");
        var builder = AgentCheckpoint.builder()
                .checkpointId("q-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version))
                .nodeId(kind.toLowerCase(Locale.ROOT))
                .metadata(metadata);
        if (kind.equals("SUBMITTED")) {
            builder.state("payload", IntNode.valueOf((int) version));
        }
        store.saveCheckpoint(agentId, builder.build());
    }
}
