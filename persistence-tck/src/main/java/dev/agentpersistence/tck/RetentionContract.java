package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.history.SweepReport;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Retention never breaks a kept checkpoint: {@code deleteCheckpointsBefore}, a keep-latest policy and a maximum age,
 * applied by {@link RetentionSweeper} to runs with growing histories, leave the kept checkpoints exact, and the run
 * continues from them.
 */
abstract class RetentionContract extends Contract {

    RetentionContract(KitSession session) {
        super(session);
    }

    private SweepReport sweep(RetentionSweeper sweeper, String agent) {
        return optional("deleteCheckpointsBefore", () -> sweeper.sweep(List.of(agent)));
    }

    private RetentionSweeper eagerSweeper(RetentionPolicy policy) {
        return eagerSweeper(provider(), policy);
    }

    /** A sweeper for which every segment not referenced is garbage: nothing else writes to these agents meanwhile. */
    static RetentionSweeper eagerSweeper(
            PersistenceStorageProvider<CheckpointFilter> provider, RetentionPolicy policy) {
        return RetentionSweeper.builder(provider)
                .policy(policy)
                .gracePeriod(Duration.ZERO)
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)))
                .build();
    }

    @Test
    @DisplayName(
            "deleteCheckpointsBefore on a growing run keeps the newer checkpoints exact, and the run continues from "
                    + "them")
    void deleteBefore() {
        String agent = agent("retention-growing");
        var run = new GrowingRun(agent).save(provider(), 300);
        assertThat(optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(agent, 250)))
                .isEqualTo(250);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(250, 300));
        var resumed = GrowingRun.resume(provider().getLatestCheckpoint(agent).orElseThrow())
                .save(provider(), 30);
        var expected = new ArrayList<>(run.between(250, 300));
        expected.addAll(resumed.between(300, 330));
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(expected);
        assertThat(provider().deleteCheckpointsBefore(agent, 329)).isEqualTo(79);
        assertThat(provider().getCheckpoints(agent)).containsExactly(resumed.at(329));
    }

    @Test
    @DisplayName("a sweep keeping the latest 5 leaves them exact, also once unused history is collected at once")
    void keepLatest() {
        String agent = agent("retention-latest");
        var run = new GrowingRun(agent).save(provider(), 300);
        var sweeper = eagerSweeper(RetentionPolicy.custom().keepLatest(5).build());
        SweepReport report = sweep(sweeper, agent);
        assertThat(report.checkpointsDeleted()).isEqualTo(295);
        assertThat(report.failedAgents()).isEmpty();
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(295, 300));
        run.save(provider(), 40);
        assertThat(sweep(sweeper, agent).checkpointsDeleted()).isEqualTo(40);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(335, 340));
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(335, 340));
        }
    }

    @Test
    @DisplayName("a sweep with a maximum age deletes exactly the checkpoints created before the cutoff")
    void maxAge() {
        String agent = agent("retention-age");
        var run = new GrowingRun(agent).save(provider(), 300);
        var clock = Clock.fixed(Checkpoints.createdAt(299).plusSeconds(1), ZoneOffset.UTC);
        var sweeper = RetentionSweeper.builder(provider())
                .clock(clock)
                .policy(RetentionPolicy.custom().maxAge(Duration.ofSeconds(50)).build())
                .build();
        assertThat(sweep(sweeper, agent).checkpointsDeleted()).isEqualTo(251);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(251, 300));
    }

    @Test
    @DisplayName("after deleteCheckpoints and a sweep, a new run of the same agent with the same messages reads back "
            + "exactly")
    void deleteAllAndRunAgain() {
        String agent = agent("retention-rerun");
        new GrowingRun(agent).save(provider(), 100);
        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(agent)))
                .isEqualTo(100);
        sweep(eagerSweeper(RetentionPolicy.keepAll()), agent);
        assertThat(provider().getCheckpoints(agent)).isEmpty();
        var again = new GrowingRun(agent).save(provider(), 100);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(again.saved());
    }

    @Test
    @DisplayName("sweeps running while the run saves never leave a checkpoint that cannot be read exactly")
    void sweepsDuringARun() throws Exception {
        String agent = agent("retention-concurrent");
        var saved = new ConcurrentHashMap<Long, AgentCheckpoint>();
        var sweeper = RetentionSweeper.builder(provider())
                .policy(RetentionPolicy.custom().keepLatest(3).build())
                .build();
        var done = new AtomicBoolean();
        var started = new CountDownLatch(1);
        var executor = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> sweeps = executor.submit(() -> {
                int count = 0;
                started.countDown();
                do {
                    sweep(sweeper, agent);
                    for (var checkpoint : provider().getCheckpoints(agent)) {
                        assertThat(checkpoint).isEqualTo(saved.get(checkpoint.version()));
                    }
                    count++;
                } while (!done.get());
                return count;
            });
            assertThat(started.await(1, TimeUnit.MINUTES)).isTrue();
            var run = new GrowingRun(agent);
            for (int i = 0; i < 150 && !sweeps.isDone(); i++) {
                var next = run.next();
                saved.put(next.version(), next);
                provider().saveCheckpoint(agent, next);
            }
            done.set(true);
            assertThat(finish(sweeps)).isPositive();
            sweep(sweeper, agent);
            assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(run.between(147, 150));
        } finally {
            done.set(true);
            executor.shutdownNow();
        }
    }

    private static int finish(Future<Integer> sweeps) throws InterruptedException, TimeoutException {
        try {
            return sweeps.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
