package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * One writer loops {@code save(vN); deleteCheckpointsBefore(agent, N)} while readers loop {@code getLatestCheckpoint},
 * {@code getCheckpoints} with a limit and {@code getCheckpoint} of the newest completed save. A checkpoint whose save
 * completed and which no completed delete removed must always be found: a resumed run would otherwise start over.
 * Bounded in time.
 */
abstract class RetentionRaceContract extends Contract {
    private static final Duration RUN_TIME = Duration.ofMillis(1500);
    private static final int MAX_VERSIONS = 400;
    private static final int READERS = 3;

    RetentionRaceContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("readers always find the newest saved checkpoint while older versions are deleted")
    void latestNeverVanishes() throws Exception {
        String agentId = agent("retention-race");
        var writer = provider();
        writer.saveCheckpoint(agentId, Checkpoints.simple(agentId, 0));
        optional("deleteCheckpointsBefore", () -> writer.deleteCheckpointsBefore(agentId, 0));
        var readers = new ArrayList<PersistenceStorageProvider<CheckpointFilter>>();
        for (int i = 0; i < READERS; i++) {
            readers.add(sharesStorage() ? newProvider() : writer);
        }
        var completed = new AtomicLong(0);
        var stop = new AtomicBoolean();
        var failures = new ConcurrentLinkedQueue<String>();
        var reads = new AtomicLong();
        var done = new CountDownLatch(READERS);
        for (int i = 0; i < READERS; i++) {
            var reader = readers.get(i);
            int kind = i;
            var thread = new Thread(
                    () -> {
                        try {
                            while (!stop.get() && failures.isEmpty()) {
                                long floor = completed.get();
                                String problem = read(reader, agentId, floor, kind);
                                if (problem != null) {
                                    failures.add(problem);
                                }
                                reads.incrementAndGet();
                            }
                        } catch (RuntimeException | Error e) {
                            failures.add("reader failed: " + e);
                        } finally {
                            done.countDown();
                        }
                    },
                    "retention-race-reader-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        long deadline = System.nanoTime() + RUN_TIME.toNanos();
        long version = 1;
        try {
            while (System.nanoTime() < deadline && version < MAX_VERSIONS && failures.isEmpty()) {
                writer.saveCheckpoint(agentId, Checkpoints.simple(agentId, version));
                completed.set(version);
                writer.deleteCheckpointsBefore(agentId, version);
                version++;
            }
        } finally {
            stop.set(true);
            assertThat(done.await(30, TimeUnit.SECONDS)).as("readers stopped").isTrue();
        }
        assertThat(failures)
                .as("reads that missed a stored checkpoint (%d reads, %d versions)", reads.get(), version)
                .isEmpty();
        assertThat(writer.getCheckpoints(agentId))
                .extracting(AgentCheckpoint::version)
                .containsExactly(version - 1);
    }

    /** One read; a description of what was wrong, or {@code null}. */
    private static String read(
            PersistenceStorageProvider<CheckpointFilter> reader, String agentId, long floor, int kind) {
        switch (kind % 3) {
            case 0 -> {
                Optional<AgentCheckpoint> latest = reader.getLatestCheckpoint(agentId);
                if (latest.isEmpty() || latest.get().version() < floor) {
                    return "getLatestCheckpoint returned "
                            + latest.map(c -> "version " + c.version()).orElse("nothing") + " after version " + floor
                            + " was saved";
                }
            }
            case 1 -> {
                List<AgentCheckpoint> newest = reader.getCheckpoints(
                        agentId, CheckpointFilter.builder().limit(1).build());
                if (newest.isEmpty() || newest.get(0).version() < floor) {
                    return "getCheckpoints(limit 1) returned " + versions(newest) + " after version " + floor
                            + " was saved";
                }
            }
            default -> {
                Optional<AgentCheckpoint> latest = reader.getLatestCheckpoint(
                        agentId, CheckpointFilter.builder().nodeId("node").build());
                if (latest.isEmpty() || latest.get().version() < floor) {
                    return "getLatestCheckpoint(nodeId) returned "
                            + latest.map(c -> "version " + c.version()).orElse("nothing")
                            + " after version " + floor + " was saved";
                }
            }
        }
        return null;
    }
}
