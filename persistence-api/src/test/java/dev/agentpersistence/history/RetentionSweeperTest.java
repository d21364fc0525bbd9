package dev.agentpersistence.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.storage.MapBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetentionSweeperTest {
    private static final Instant T0 = Instant.parse("2026-03-14T15:09:26.535897932Z");

    private final MutableClock clock = new MutableClock(T0.plusSeconds(1000));
    private final StorageShell storage = MapBackend.shell(clock)
            .settings(StorageSettings.custom()
                    .history(IncrementalHistoryConfig.custom()
                            .layout("tiers")
                            .gracePeriod(Duration.ofMinutes(5))
                            .build())
                    .build())
            .build();

    static List<Message> grow(List<Message> history, int step, int padding) {
        var next = new ArrayList<>(history);
        String pad = "x".repeat(padding);
        next.add(Message.user("question " + step + " " + pad));
        next.add(Message.assistant("answer " + step + " " + pad).withMetadata("step", Integer.toString(step)));
        return next;
    }

    static AgentCheckpoint checkpoint(String agent, long version, List<Message> history) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId("node")
                .messageHistory(history)
                .build();
    }

    private int segmentCount(String agent) {
        return storage.storedForm().orElseThrow().segments().listSegments(agent).size();
    }

    private List<String> segmentAgents() {
        return storage.storedForm().orElseThrow().listSegmentAgents();
    }

    private List<AgentCheckpoint> run(String agent, int steps) {
        return run(storage, agent, steps);
    }

    /** Saves {@code steps} checkpoints of a run whose history grows by two messages per step. */
    static List<AgentCheckpoint> run(PersistenceStorageProvider<CheckpointFilter> storage, String agent, int steps) {
        var saved = new ArrayList<AgentCheckpoint>();
        List<Message> history = List.of();
        for (int step = 0; step < steps; step++) {
            history = grow(history, step, 5);
            var checkpoint = checkpoint(agent, step, history);
            storage.saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        return saved;
    }

    @Test
    void keepLatestKeepsTheNewestAndCollectsTheirUnusedSegmentsAfterTheGracePeriod() {
        var a = run("a", 300);
        var b = run("b", 20);
        var sweeper = RetentionSweeper.builder(storage)
                .clock(clock)
                .policy(RetentionPolicy.custom().keepLatest(5).build())
                .build();
        var first = sweeper.sweep();
        assertThat(first.checkpointsDeleted()).isEqualTo(295 + 15);
        assertThat(first.segmentsDeleted())
                .as("all segments are younger than the grace period")
                .isZero();
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(a.subList(295, 300));
        assertThat(storage.getCheckpoints("b")).containsExactlyElementsOf(b.subList(15, 20));

        clock.advance(Duration.ofMinutes(6));
        var second = sweeper.sweep();
        assertThat(second.checkpointsDeleted()).isZero();
        assertThat(second.segmentsDeleted()).isPositive();
        assertThat(segmentCount("a")).isEqualTo(2);
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(a.subList(295, 300));
        assertThat(storage.getCheckpoints("b")).containsExactlyElementsOf(b.subList(15, 20));
        assertThat(sweeper.sweep().segmentsDeleted()).isZero();
    }

    @Test
    void cutoffNamesWhatASweepWouldDeleteWithoutDeleting() {
        var a = run("a", 30);
        var sweeper = RetentionSweeper.builder(storage)
                .clock(clock)
                .policy(RetentionPolicy.custom().keepLatest(4).build())
                .build();
        assertThat(sweeper.cutoff("a")).hasValue(26);
        assertThat(sweeper.cutoff("unknown")).isEmpty();
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(a);
        assertThat(RetentionSweeper.builder(storage).build().cutoff("a"))
                .as("keep all")
                .isEmpty();
    }

    @Test
    void sweepingChosenAgentsLeavesTheOthersAlone() {
        var a = run("a", 30);
        var b = run("b", 30);
        var report = RetentionSweeper.builder(storage)
                .clock(clock)
                .policy(RetentionPolicy.custom().keepLatest(2).build())
                .build()
                .sweep(List.of("a"));
        assertThat(report.agentsVisited()).isEqualTo(1);
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(a.subList(28, 30));
        assertThat(storage.getCheckpoints("b")).containsExactlyElementsOf(b);
    }

    @Test
    void maxAgeDeletesCheckpointsCreatedBeforeTheCutoff() {
        var a = run("a", 100);
        clock.advance(Duration.ofMinutes(10));
        var sweeper = RetentionSweeper.builder(storage)
                .clock(clock)
                .policy(RetentionPolicy.custom()
                        .maxAge(Duration.ofSeconds(1000 + 600 - 60))
                        .build())
                .build();
        var report = sweeper.sweep();
        assertThat(report.checkpointsDeleted()).isEqualTo(60);
        assertThat(report.startedAt()).isEqualTo(clock.instant());
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(a.subList(60, 100));
    }

    @Test
    void agentsLeftWithSegmentsOnlyAreCollected() {
        run("gone", 50);
        storage.deleteCheckpoints("gone");
        assertThat(segmentAgents()).containsExactly("gone");
        clock.advance(Duration.ofMinutes(6));
        var report = RetentionSweeper.builder(storage).clock(clock).build().sweep();
        assertThat(report.agentsVisited()).isEqualTo(1);
        assertThat(report.segmentsDeleted()).isPositive();
        assertThat(segmentAgents()).isEmpty();
    }

    @Test
    void backendExpiryRunsFirstAndFailuresOfOneAgentDoNotStopTheOthers() {
        var expiring = new ExpiringHeap();
        expiring.storage.saveCheckpoint("a", checkpoint("a", 0, List.of()));
        expiring.storage.saveCheckpoint("b", checkpoint("b", 0, List.of()));
        expiring.failAgent = "a";
        var report = RetentionSweeper.builder(expiring)
                .clock(clock)
                .policy(RetentionPolicy.custom().keepLatest(1).build())
                .build()
                .sweep();
        assertThat(report.expiredDeleted()).isEqualTo(7);
        assertThat(report.failedAgents()).containsExactly("a");
        assertThat(report.agentsVisited()).isEqualTo(2);
    }

    @Test
    void scheduledSweepsRunOnTheApplicationsExecutorAndSurviveFailures() throws InterruptedException {
        var executor = Executors.newSingleThreadScheduledExecutor();
        try {
            var runs = new CountDownLatch(3);
            var calls = new AtomicInteger();
            var flaky = new ExpiringHeap() {
                @Override
                public int deleteExpired() {
                    int call = calls.incrementAndGet();
                    runs.countDown();
                    if (call == 1) {
                        throw new IllegalStateException("backend hiccup");
                    }
                    return 0;
                }
            };
            var future = RetentionSweeper.builder(flaky)
                    .clock(clock)
                    .build()
                    .schedule(executor, Duration.ZERO, Duration.ofMillis(10));
            assertThat(runs.await(10, TimeUnit.SECONDS)).isTrue();
            future.cancel(false);
            assertThat(calls.get()).isGreaterThanOrEqualTo(3);
        } finally {
            executor.shutdownNow();
        }
        var sweeper = RetentionSweeper.builder(storage).build();
        assertThatThrownBy(() -> sweeper.schedule(executor, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void policiesValidateTheirArguments() {
        assertThatThrownBy(() -> RetentionPolicy.custom().keepLatest(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetentionPolicy.custom().maxAge(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RetentionPolicy.keepAll().keepLatest()).isEmpty();
        assertThat(RetentionPolicy.custom()
                        .keepLatest(3)
                        .maxAge(Duration.ofDays(7))
                        .build())
                .hasToString("RetentionPolicy{keepLatest=3, maxAge=PT168H}");
        assertThatThrownBy(() -> RetentionSweeper.builder(storage).gracePeriod(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A provider with backend expiry that fails reads of one agent. */
    static class ExpiringHeap implements PersistenceStorageProvider<CheckpointFilter> {
        final StorageShell storage =
                StorageShell.builder(new MapBackend(Clock.systemUTC())).build();
        volatile String failAgent;

        @Override
        public int deleteExpired() {
            return 7;
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            if (agentId.equals(failAgent)) {
                throw new StorageUnavailableException("backend down for " + agentId, null);
            }
            return storage.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            storage.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return storage.getLatestCheckpoint(agentId, filter);
        }

        @Override
        public int deleteCheckpointsBefore(String agentId, long version) {
            return storage.deleteCheckpointsBefore(agentId, version);
        }

        @Override
        public List<String> listAgents() {
            return storage.listAgents();
        }
    }
}
