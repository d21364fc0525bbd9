package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import dev.agentpersistence.tck.RequiredMethodsProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers of one queue race from two stores over one database (two "processes"): every queue entry is appended right
 * after the head its writer read and decided on, so of racing submissions or cancellations of one run exactly one is
 * taken, and a cancellation that loses to the run's completion cancels nothing.
 */
class QueueRacesTest {
    private static final int THREADS = 4;

    @TempDir
    Path dir;

    private final String pipeline = "races-" + UUID.randomUUID().toString().substring(0, 8);

    private PersistenceStorageProvider<CheckpointFilter> storage(String kind) {
        String url = kind.equals("sqlite")
                ? "jdbc:sqlite:" + dir.resolve("queue.db")
                : "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
        return JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build()).build();
    }

    /** The pipeline's queue through each of two stores over one database, as two processes see it. */
    private List<PipelineQueue> queues(PersistenceStorageProvider<?> first, PersistenceStorageProvider<?> second) {
        return List.of(
                PipelineQueue.of(first, pipeline, Clock.systemUTC()),
                PipelineQueue.of(second, pipeline, Clock.systemUTC()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    @Timeout(120)
    void ofRacingSubmissionsOfOneRunExactlyOneAddsIt(String kind) throws Exception {
        try (var first = storage(kind);
                var second = storage(kind)) {
            var queues = queues(first, second);
            for (int i = 0; i < 10; i++) {
                String runId = "run-" + i;
                List<Boolean> added = race(k -> queues.get(k % 2).submit(runId, IntNode.valueOf(k)));
                assertThat(added).as(runId).containsOnlyOnce(true);
            }
            var fresh = PipelineQueue.of(first, pipeline, Clock.systemUTC());
            assertThat(fresh.runs()).extracting(QueuedRun::runId).hasSize(10).doesNotHaveDuplicates();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    @Timeout(120)
    void ofRacingCancellationsAndRetriesEachIsDecidedOnTheStateItSaw(String kind) throws Exception {
        try (var first = storage(kind);
                var second = storage(kind)) {
            var queues = queues(first, second);
            for (int i = 0; i < 10; i++) {
                String runId = "run-" + i;
                queues.get(0).submit(runId, IntNode.valueOf(i));
                List<Boolean> cancelled = race(k -> queues.get(k % 2).cancel(runId, "by " + k));
                assertThat(cancelled).as("cancellations of " + runId).containsOnlyOnce(true);
                List<Boolean> retried = race(k -> queues.get(k % 2).retry(runId));
                assertThat(retried).as("retries of " + runId).containsOnlyOnce(true);
            }
            assertThat(PipelineQueue.of(second, pipeline, Clock.systemUTC()).runs())
                    .hasSize(10)
                    .allSatisfy(run -> assertThat(run.status()).isEqualTo(QueuedRun.Status.QUEUED));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    @Timeout(120)
    void aCancellationThatLosesToTheCompletionCancelsNothing(String kind) throws Exception {
        var cancelRead = new CountDownLatch(1);
        var completed = new CountDownLatch(1);
        try (var workerStore = storage(kind);
                var operatorStore = new HeldCancellations(storage(kind), cancelRead, completed)) {
            var run = Pipeline.builder(pipeline, StateCodec.jackson(Integer.class))
                    .storage(workerStore)
                    .node(Node.of("wait-for-the-cancellation", context -> {
                        assertThat(cancelRead.await(60, TimeUnit.SECONDS)).isTrue();
                        return context.state() + 1;
                    }))
                    .build();
            try (var workers = PipelineWorkers.builder(run)
                    .pollInterval(Duration.ofMillis(20))
                    .listener(event -> {
                        if (event instanceof WorkerEvent.RunReleased) {
                            completed.countDown();
                        }
                    })
                    .build()) {
                String runId = pipeline + "-r"; // run ids are unique across the pipelines of a store
                workers.submit(runId, 1);
                workers.start();
                var operator = PipelineQueue.of(operatorStore, pipeline, Clock.systemUTC());
                // reads the run as queued, then its save waits until the worker recorded the completion
                assertThat(operator.cancel(runId, "too late")).isFalse();
                assertThat(operator.runs()).singleElement().satisfies(queued -> {
                    assertThat(queued.status()).isEqualTo(QueuedRun.Status.COMPLETED);
                    assertThat(queued.detail()).isEmpty();
                });
            }
        }
    }

    /** Runs {@code call} from {@value #THREADS} threads started at once; their results. */
    private static List<Boolean> race(Racer call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            var barrier = new CyclicBarrier(THREADS);
            var futures = new ArrayList<Future<Boolean>>();
            for (int k = 0; k < THREADS; k++) {
                int index = k;
                Callable<Boolean> task = () -> {
                    barrier.await(30, TimeUnit.SECONDS);
                    return call.run(index);
                };
                futures.add(pool.submit(task));
            }
            var results = new ArrayList<Boolean>();
            for (Future<Boolean> future : futures) {
                results.add(future.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private interface Racer {
        boolean run(int index) throws Exception;
    }

    /**
     * A real store whose first save of a cancellation waits until the run completed elsewhere: the cancellation was
     * decided on the run as queued, and its entry reaches the store after the completion's.
     */
    private static final class HeldCancellations extends RequiredMethodsProvider<CheckpointFilter> {
        private final CountDownLatch cancelRead;
        private final CountDownLatch completed;
        private final AtomicBoolean held = new AtomicBoolean();

        HeldCancellations(
                PersistenceStorageProvider<CheckpointFilter> store,
                CountDownLatch cancelRead,
                CountDownLatch completed) {
            super(store);
            this.cancelRead = cancelRead;
            this.completed = completed;
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            if ("CANCELLED".equals(checkpoint.metadata().get("queue.kind"))) {
                holdOnce();
            }
            super.saveCheckpoint(agentId, checkpoint);
        }

        /** The store's native queues, whose write of a cancellation is held like the log's. */
        @Override
        public Optional<QueueStore> queues() {
            return delegate().queues().map(queues -> new QueueStore() {
                @Override
                public List<QueueItem> items(String queue) {
                    return queues.items(queue);
                }

                @Override
                public Optional<QueueItem> item(String queue, String id) {
                    return queues.item(queue, id);
                }

                @Override
                public List<QueueItem> runnable(String queue, Instant now, int limit) {
                    return queues.runnable(queue, now, limit);
                }

                @Override
                public List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
                    return queues.claim(queue, now, until, limit);
                }

                @Override
                public void hold(String queue, String id, Instant until) {
                    queues.hold(queue, id, until);
                }

                @Override
                public boolean write(String queue, QueueItem item) {
                    if (new String(item.body(), StandardCharsets.UTF_8).contains("\"CANCELLED\"")) {
                        holdOnce();
                    }
                    return queues.write(queue, item);
                }

                @Override
                public int deleteFinished(String queue, int keep) {
                    return queues.deleteFinished(queue, keep);
                }
            });
        }

        /** The first time: tells that the cancellation was decided, then waits until the run completed. */
        private void holdOnce() {
            if (held.compareAndSet(false, true)) {
                cancelRead.countDown();
                try {
                    assertThat(completed.await(60, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public void close() {
            delegate().close();
        }
    }
}
