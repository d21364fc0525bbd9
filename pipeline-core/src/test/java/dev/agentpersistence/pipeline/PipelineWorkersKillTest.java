package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.ChildJvm;
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
        assertThat(WorkerFixture.executions(log)).contains("hang-1 a", "hang-1 b");

        try (var storage = WorkerFixture.storage(dir);
                var workers = PipelineWorkers.builder(WorkerFixture.pipeline(storage, log, false))
                        .workerId("parent")
                        .leaseTime(Duration.ofMillis(LEASE_MILLIS))
                        .pollInterval(Duration.ofMillis(50))
                        .build()
                        .start()) {
            long recoveredAt = awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(60));
            assertThat(Duration.ofNanos(recoveredAt - killedAt))
                    .as("recovery within the lease time and a margin")
                    .isLessThan(Duration.ofMillis(LEASE_MILLIS + 5_000));
        }
        List<String> executions = WorkerFixture.executions(log);
        assertThat(executions).filteredOn(line -> line.equals("hang-1 a")).hasSize(1);
        assertThat(executions)
                .as("the killed attempt of b and the recovered one")
                .filteredOn(line -> line.equals("hang-1 b"))
                .hasSize(2);
        assertThat(executions).filteredOn(line -> line.equals("hang-1 c")).hasSize(1);
        assertThat(executions).filteredOn(line -> line.startsWith("plain-1")).hasSize(3);
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
