package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.ChildJvm;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM killed inside a run: once its lease runs out a worker in another JVM takes the run over and finishes it
 * from its newest checkpoint, without anyone calling anything and without running finished nodes again.
 */
class PipelineWorkersKillTest {
    private static final long LEASE_MILLIS = 1_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aKilledWorkersRunIsRecoveredByAnotherJvm() throws Exception {
        Path log = dir.resolve("executions.log");
        try (var storage = WorkerFixture.storage(dir)) {
            var submitter = PipelineWorkers.builder(WorkerFixture.pipeline(storage, log, false))
                    .build();
            submitter.submit("hang-1", List.of());
            submitter.submit("plain-1", List.of());
        }
        long killedAt;
        try (var child = ChildJvm.start(WorkerProcess.class, dir.toString(), Long.toString(LEASE_MILLIS))) {
            child.awaitLine("HANGING hang-1", Duration.ofSeconds(60));
            child.kill();
            killedAt = System.nanoTime();
        }
        List<String> beforeRecovery = WorkerFixture.executions(log);
        assertThat(beforeRecovery).contains("hang-1 a", "hang-1 b");
        long unfinished;
        try (var storage = WorkerFixture.storage(dir)) {
            // the runs the killed worker had started (its lease exists) and had not recorded as completed
            unfinished = PipelineWorkers.builder(WorkerFixture.pipeline(storage, log, false)).build().runs().stream()
                    .filter(run -> run.status() != QueuedRun.Status.COMPLETED)
                    .filter(run -> dev.agentpersistence.lease.Leases.of(storage, java.time.Clock.systemUTC())
                            .current("jobs/" + run.runId())
                            .isPresent())
                    .count();
        }
        assertThat(unfinished).isGreaterThanOrEqualTo(1);

        var meters = new SimpleMeterRegistry();
        try (var storage = WorkerFixture.storage(dir);
                var workers = PipelineWorkers.builder(WorkerFixture.pipeline(storage, log, false))
                        .workerId("parent")
                        .listener(PipelineWorkersMetrics.bindTo(meters))
                        .leaseTime(Duration.ofMillis(LEASE_MILLIS))
                        .pollInterval(Duration.ofMillis(50))
                        .build()
                        .start()) {
            long recoveredAt = awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(60));
            assertThat(Duration.ofNanos(recoveredAt - killedAt))
                    .as("recovery within the lease time and a margin")
                    .isLessThan(Duration.ofMillis(LEASE_MILLIS + 5_000));
        }
        var recovery = meters.get(PipelineWorkersMetrics.RECOVERY_DURATION).timer();
        assertThat(recovery.count())
                .as("every run the killed worker left unfinished was taken over")
                .isEqualTo(unfinished);
        System.out.printf(
                "recovery after the lease ended: %.0f ms%n", recovery.max(java.util.concurrent.TimeUnit.MILLISECONDS));
        assertThat(meters.get(PipelineWorkersMetrics.CLAIMS)
                        .tag("recovery", "true")
                        .counter()
                        .count())
                .isEqualTo(unfinished);
        assertThat(meters.get(PipelineWorkersMetrics.RUNS_RELEASED)
                        .tag("outcome", "completed")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1);
        List<String> executions = WorkerFixture.executions(log);
        assertThat(executions).filteredOn(line -> line.equals("hang-1 a")).hasSize(1);
        assertThat(executions)
                .as("the killed attempt of b and the recovered one")
                .filteredOn(line -> line.equals("hang-1 b"))
                .hasSize(2);
        assertThat(executions).filteredOn(line -> line.equals("hang-1 c")).hasSize(1);
        assertThat(executions).contains("plain-1 a", "plain-1 b", "plain-1 c");
        assertThat(executions)
                .as("at most the node the kill cut off runs twice")
                .filteredOn(line -> line.startsWith("plain-1"))
                .hasSizeBetween(3, 4);
    }

    static long awaitAll(PipelineWorkers<?> workers, QueuedRun.Status status, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            var runs = workers.runs();
            if (!runs.isEmpty() && runs.stream().allMatch(run -> run.status() == status)) {
                return System.nanoTime();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not every run reached " + status + ": " + workers.runs());
    }
}
