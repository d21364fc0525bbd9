package dev.agentpersistence.pipeline;

import static dev.agentpersistence.pipeline.PipelineWorkersKillTest.awaitAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.RequiredMethodsProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue-depth gauge counts the runs waiting for a worker, over a native queue (SQLite's queue table, where a run in
 * flight is held by its claim) and over a log of checkpoints (which holds no claims, so a run in flight counts too).
 */
class QueueDepthTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void countsTheRunsWaitingInANativeQueue() throws Exception {
        try (var storage = WorkerFixture.storage(dir)) {
            assertThat(storage.queues()).isPresent();
            assertDepths(storage, 3);
        }
    }

    @Test
    @Timeout(60)
    void countsTheRunnableRunsOfALog() throws Exception {
        try (var storage = WorkerFixture.storage(dir)) {
            var withoutQueues = new RequiredMethodsProvider<>(storage);
            assertThat(withoutQueues.queues()).isEmpty();
            assertDepths(withoutQueues, 4);
        }
    }

    /** Four runs, one slot: one runs (blocked) while the other worker thread polls; then all finish. */
    private static void assertDepths(PersistenceStorageProvider<?> storage, int whileOneRuns) throws Exception {
        var release = new CountDownLatch(1);
        var started = new CountDownLatch(1);
        var pipeline = Pipeline.builder("depth", WorkerFixture.CODEC)
                .storage(storage)
                .node(Node.of("work", context -> {
                    started.countDown();
                    release.await();
                    return List.of("w");
                }))
                .build();
        var meters = new SimpleMeterRegistry();
        try (var workers = PipelineWorkers.builder(pipeline)
                .threads(2)
                .maxRunning(1)
                .pollInterval(Duration.ofMillis(10))
                .listener(PipelineWorkersMetrics.bindTo(meters))
                .build()) {
            for (int i = 0; i < 4; i++) {
                workers.submit("r" + i, List.of());
            }
            workers.start();
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            awaitDepth(meters, whileOneRuns);
            release.countDown();
            awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(30));
            awaitDepth(meters, 0);
        }
    }

    private static void awaitDepth(SimpleMeterRegistry meters, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        double depth = Double.NaN;
        while (System.nanoTime() < deadline) {
            var gauge = meters.find(PipelineWorkersMetrics.QUEUE_DEPTH)
                    .tag("pipeline", "depth")
                    .gauge();
            depth = gauge == null ? Double.NaN : gauge.value();
            if (depth == expected) {
                return;
            }
            Thread.sleep(20);
        }
        assertThat(depth).as("queue depth").isEqualTo(expected);
    }
}
