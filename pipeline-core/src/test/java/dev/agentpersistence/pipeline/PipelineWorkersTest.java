package dev.agentpersistence.pipeline;

import static dev.agentpersistence.pipeline.PipelineWorkersKillTest.awaitAll;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Workers of two "processes" (two providers over one SQLite file) sharing one durable queue. */
class PipelineWorkersTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void twoWorkerSetsOnOneStoreRunEveryRunOnceAndEachNodeOnce() throws Exception {
        Path log = dir.resolve("executions.log");
        try (var first = WorkerFixture.storage(dir);
                var second = WorkerFixture.storage(dir);
                var one = workers(first, log, "one", 2);
                var two = workers(second, log, "two", 2)) {
            for (int i = 0; i < 20; i++) {
                assertThat(one.submit("run-" + i, List.of())).isTrue();
            }
            assertThat(two.submit("run-3", List.of())).as("already queued").isFalse();
            one.start();
            two.start();
            awaitAll(one, QueuedRun.Status.COMPLETED, Duration.ofSeconds(90));
        }
        List<String> executions = WorkerFixture.executions(log);
        assertThat(executions).hasSize(60).doesNotHaveDuplicates();
        for (int i = 0; i < 20; i++) {
            assertThat(executions).contains("run-" + i + " a", "run-" + i + " b", "run-" + i + " c");
        }
    }

    @Test
    @Timeout(60)
    void aFailedRunIsQueuedAgainAfterItsBackoffUntilItSucceeds() throws Exception {
        var tries = new AtomicInteger();
        try (var storage = WorkerFixture.storage(dir)) {
            var pipeline = Pipeline.builder("flaky", WorkerFixture.CODEC)
                    .storage(storage)
                    .retryPolicy(RetryPolicy.noRetries())
                    .node(Node.of("flaky", context -> {
                        if (tries.incrementAndGet() < 3) {
                            throw new IllegalStateException("not yet (" + tries.get() + ")");
                        }
                        return List.of("done");
                    }))
                    .build();
            try (var workers = PipelineWorkers.builder(pipeline)
                    .pollInterval(Duration.ofMillis(20))
                    .retryPolicy(RetryPolicy.custom()
                            .maxRetries(2)
                            .backoff(Backoff.fixed(Duration.ofMillis(300)))
                            .build())
                    .build()) {
                workers.submit("r", List.of());
                workers.start();
                long started = System.nanoTime();
                awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(30));
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("two backoffs waited")
                        .isGreaterThanOrEqualTo(Duration.ofMillis(600));
                assertThat(workers.runs().get(0).retries()).isEqualTo(2);
            }
        }
        assertThat(tries).hasValue(3);
    }

    @Test
    @Timeout(60)
    void aRunOutOfRetriesFailsAndCanBeRequeued() throws Exception {
        var failing = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (var storage = WorkerFixture.storage(dir)) {
            var pipeline = Pipeline.builder("doomed", WorkerFixture.CODEC)
                    .storage(storage)
                    .retryPolicy(RetryPolicy.noRetries())
                    .node(Node.of("x", context -> {
                        if (failing.get()) {
                            throw new IllegalStateException("broken");
                        }
                        return List.of("x");
                    }))
                    .build();
            try (var workers = PipelineWorkers.builder(pipeline)
                    .pollInterval(Duration.ofMillis(20))
                    .build()
                    .start()) {
                workers.submit("r", List.of());
                awaitAll(workers, QueuedRun.Status.FAILED, Duration.ofSeconds(30));
                assertThat(workers.runs().get(0).detail())
                        .hasValueSatisfying(detail -> assertThat(detail).contains("broken"));

                failing.set(false);
                assertThat(workers.queue().retry("r")).isTrue();
                awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(30));
                assertThat(workers.queue().retry("r")).as("a completed run").isFalse();
            }
        }
    }

    @Test
    @Timeout(60)
    void aWaitingRunContinuesOnAWorkerOnceAnsweredFromAnywhere() throws Exception {
        try (var storage = WorkerFixture.storage(dir);
                var other = WorkerFixture.storage(dir)) {
            var pipeline = Pipeline.builder("ask", WorkerFixture.CODEC)
                    .storage(storage)
                    .node(Node.of("ask", context -> {
                        var answer = context.awaitInput("ship it?", AnswerSchema.text());
                        return List.of(answer.asText());
                    }))
                    .build();
            try (var workers = PipelineWorkers.builder(pipeline)
                    .pollInterval(Duration.ofMillis(20))
                    .build()
                    .start()) {
                workers.submit("q", List.of());
                awaitAll(workers, QueuedRun.Status.WAITING, Duration.ofSeconds(30));

                // answered from another process that has the store but not the pipeline's code
                var elsewhere = PipelineQueue.of(other, "ask", java.time.Clock.systemUTC());
                assertThat(elsewhere.runs())
                        .singleElement()
                        .extracting(QueuedRun::status)
                        .isEqualTo(QueuedRun.Status.WAITING);
                assertThat(elsewhere.answer("q", TextNode.valueOf("yes"))).isTrue();
                awaitAll(workers, QueuedRun.Status.COMPLETED, Duration.ofSeconds(30));
            }
            assertThat(pipeline.run("q", List.of()).state()).containsExactly("yes");
        }
    }

    @Test
    @Timeout(60)
    void aCancelledRunIsNeverStartedAndClosingHandsLeasesBackAtOnce() throws Exception {
        var started = new CountDownLatch(1);
        var ran = new ConcurrentHashMap<String, AtomicInteger>();
        try (var storage = WorkerFixture.storage(dir)) {
            var pipeline = Pipeline.builder("slow", WorkerFixture.CODEC)
                    .storage(storage)
                    .node(Node.of("slow", context -> {
                        int time = ran.computeIfAbsent(context.runId(), k -> new AtomicInteger())
                                .incrementAndGet();
                        if (context.runId().equals("long") && time == 1) {
                            started.countDown();
                            Thread.sleep(60_000);
                        }
                        return List.of("slow");
                    }))
                    .build();
            var first = PipelineWorkers.builder(pipeline)
                    .workerId("first")
                    .leaseTime(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .build();
            first.submit("cancelled", List.of());
            assertThat(first.queue().cancel("cancelled", "not needed")).isTrue();
            first.submit("long", List.of());
            first.start();
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(first.runs())
                    .filteredOn(run -> run.runId().equals("long"))
                    .singleElement()
                    .satisfies(run -> {
                        assertThat(run.status()).isEqualTo(QueuedRun.Status.RUNNING);
                        assertThat(run.holder()).contains("first#0");
                    });
            first.close(Duration.ofSeconds(10));

            long handedBack = System.nanoTime();
            try (var second = PipelineWorkers.builder(pipeline)
                    .workerId("second")
                    .leaseTime(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .build()
                    .start()) {
                awaitRun(second, "long", QueuedRun.Status.COMPLETED);
                assertThat(Duration.ofNanos(System.nanoTime() - handedBack))
                        .as("taken over without waiting for the 30 s lease")
                        .isLessThan(Duration.ofSeconds(10));
                assertThat(second.runs())
                        .filteredOn(run -> run.runId().equals("cancelled"))
                        .singleElement()
                        .satisfies(run -> {
                            assertThat(run.status()).isEqualTo(QueuedRun.Status.CANCELLED);
                            assertThat(run.detail()).contains("not needed");
                        });
            }
        }
        assertThat(ran).doesNotContainKey("cancelled");
        assertThat(ran.get("long")).hasValue(2);
    }

    @Test
    @Timeout(60)
    void maxRunningBoundsTheRunsInFlightOverAllWorkers() throws Exception {
        var inFlight = new AtomicInteger();
        var most = new AtomicInteger();
        try (var storage = WorkerFixture.storage(dir)) {
            var pipeline = Pipeline.builder("bounded", WorkerFixture.CODEC)
                    .storage(storage)
                    .node(Node.of("work", context -> {
                        most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                        Thread.sleep(100);
                        inFlight.decrementAndGet();
                        return List.of("w");
                    }))
                    .build();
            var all = new ArrayList<PipelineWorkers<List<String>>>();
            for (int w = 0; w < 2; w++) {
                all.add(PipelineWorkers.builder(pipeline)
                        .threads(3)
                        .maxRunning(2)
                        .pollInterval(Duration.ofMillis(10))
                        .build());
            }
            for (int i = 0; i < 10; i++) {
                all.get(0).submit("r" + i, List.of());
            }
            all.forEach(PipelineWorkers::start);
            try {
                awaitAll(all.get(0), QueuedRun.Status.COMPLETED, Duration.ofSeconds(45));
            } finally {
                all.forEach(PipelineWorkers::close);
            }
        }
        assertThat(most.get()).isBetween(1, 2);
    }

    private static void awaitRun(PipelineWorkers<?> workers, String runId, QueuedRun.Status status)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Map<String, QueuedRun.Status> now = new java.util.HashMap<>();
            workers.runs().forEach(run -> now.put(run.runId(), run.status()));
            if (now.get(runId) == status) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(runId + " did not reach " + status + ": " + workers.runs());
    }

    private static PipelineWorkers<List<String>> workers(
            PersistenceStorageProvider<?> storage, Path log, String id, int threads) {
        return PipelineWorkers.builder(WorkerFixture.pipeline(storage, log, false))
                .workerId(id)
                .threads(threads)
                .leaseTime(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .build();
    }
}
