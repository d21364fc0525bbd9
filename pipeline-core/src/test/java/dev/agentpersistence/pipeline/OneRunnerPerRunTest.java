package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.Tool;
import dev.agentpersistence.pipeline.internal.RunCheckpoints;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two callers race for one run: both read the same head (a listener holds each at its first load until the other has
 * loaded too), then exactly one claims the run and the other gets {@link RunBusyException} and runs nothing.
 */
class OneRunnerPerRunTest {
    @TempDir
    Path tmp;

    private final AtomicInteger shipped = new AtomicInteger();

    private PersistenceStorageProvider<CheckpointFilter> storage(String kind) {
        return kind.equals("sqlite")
                ? PersistenceStorageProviders.load(
                        "jdbc",
                        ProviderConfig.of(
                                Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + tmp.resolve("runs.db"))))
                : Storages.inMemory();
    }

    private Pipeline<String> pipeline(PersistenceStorageProvider<?> storage, PipelineListener listener) {
        Tool ship = Tool.of("ship", args -> {
            shipped.incrementAndGet();
            return TextNode.valueOf("shipped");
        });
        return Pipeline.builder("orders", StateCodec.jackson(String.class))
                .storage(storage)
                .listener(listener)
                .node(Node.of(
                        "approve",
                        ctx -> ctx.state() + " approved="
                                + ctx.awaitInput("Ship?", AnswerSchema.oneOf("yes", "no"))
                                        .asText()))
                .node(Node.of("ship", ctx -> {
                    ctx.callTool(ship, null);
                    return ctx.state() + " shipped";
                }))
                .build();
    }

    /** Holds the first load of each of two racing calls until both have loaded. */
    private static PipelineListener bothLoadFirst(CyclicBarrier barrier, ThreadLocal<Boolean> armed) {
        return event -> {
            if (event instanceof PipelineEvent.CheckpointLoaded && armed.get()) {
                armed.set(false);
                try {
                    barrier.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"inmemory", "sqlite"})
    void ofTwoConcurrentAnswersExactlyOneContinuesTheRunAndTheToolRunsOnce(String kind) throws Exception {
        ThreadLocal<Boolean> armed = ThreadLocal.withInitial(() -> false);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (var storage = storage(kind)) {
            var pipeline = pipeline(storage, bothLoadFirst(new CyclicBarrier(2), armed));
            for (int round = 0; round < 20; round++) {
                String runId = "order-" + round;
                shipped.set(0);
                assertThat(pipeline.run(runId, "order").isWaiting()).isTrue();
                var barrier = new CyclicBarrier(2);
                var racing = pipeline(storage, bothLoadFirst(barrier, armed));
                List<Future<PipelineResult<String>>> calls = new ArrayList<>();
                for (String answer : List.of("yes", "no")) {
                    calls.add(threads.submit(() -> {
                        armed.set(true);
                        return racing.resume(runId, TextNode.valueOf(answer));
                    }));
                }
                var completed = new ArrayList<PipelineResult<String>>();
                var refused = new ArrayList<Throwable>();
                for (var call : calls) {
                    try {
                        completed.add(call.get(30, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.ExecutionException e) {
                        refused.add(e.getCause());
                    }
                }
                assertThat(completed)
                        .as("round %d", round)
                        .singleElement()
                        .satisfies(r -> assertThat(r.isCompleted()).isTrue());
                assertThat(refused).as("round %d", round).singleElement().isInstanceOf(RunBusyException.class);
                assertThat(shipped).as("round %d", round).hasValue(1);
                assertThat(pipeline.run(runId, "again").state())
                        .isEqualTo(completed.get(0).state());
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inmemory", "sqlite"})
    void ofTwoConcurrentRunsOfOneIdExactlyOneRunsAndTheOtherRunsNothing(String kind) throws Exception {
        ThreadLocal<Boolean> armed = ThreadLocal.withInitial(() -> false);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        var approvals = new AtomicInteger();
        try (var storage = storage(kind)) {
            var barrier = new CyclicBarrier(2);
            var pipeline = Pipeline.builder("orders", StateCodec.jackson(String.class))
                    .storage(storage)
                    .listener(bothLoadFirst(barrier, armed))
                    .node(Node.of("count", ctx -> {
                        approvals.incrementAndGet();
                        return ctx.state() + " counted";
                    }))
                    .build();
            List<Future<PipelineResult<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                calls.add(threads.submit(() -> {
                    armed.set(true);
                    return pipeline.run("same", "order");
                }));
            }
            int completed = 0;
            int busy = 0;
            for (var call : calls) {
                try {
                    completed += call.get(30, TimeUnit.SECONDS).isCompleted() ? 1 : 0;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(RunBusyException.class);
                    busy++;
                }
            }
            assertThat(completed).isEqualTo(1);
            assertThat(busy).isEqualTo(1);
            assertThat(approvals).hasValue(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inmemory", "sqlite"})
    void aRunnerOvertakenInsideANodeIsRefusedAtItsNextSaveAndItsNextToolNeverRuns(String kind) throws Exception {
        ExecutorService threads = Executors.newSingleThreadExecutor();
        var entered = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var blockOnce = new AtomicBoolean(true);
        var shippedBy = new CopyOnWriteArrayList<String>();
        Tool ship = Tool.of("ship", args -> {
            shippedBy.add(Thread.currentThread().getName());
            return TextNode.valueOf("shipped");
        });
        try (var storage = storage(kind)) {
            var pipeline = Pipeline.builder("orders", StateCodec.jackson(String.class))
                    .storage(storage)
                    .node(Node.of("pack", ctx -> {
                        if (blockOnce.getAndSet(false)) {
                            entered.countDown();
                            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                        }
                        return ctx.state() + " packed";
                    }))
                    .node(Node.of("ship", ctx -> {
                        ctx.callTool(ship, null);
                        return ctx.state() + " shipped";
                    }))
                    .build();
            Future<PipelineResult<String>> stale = threads.submit(() -> pipeline.run("taken", "order"));
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

            var takeover = pipeline.run("taken", "ignored");
            release.countDown();

            assertThat(takeover.isCompleted()).isTrue();
            assertThat(takeover.executedNodes()).containsExactly("pack", "ship");
            assertThatThrownBy(() -> stale.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(RunBusyException.class)
                    .satisfies(e -> assertThat(((RunBusyException) e).runId()).isEqualTo("taken"));
            assertThat(shippedBy)
                    .as("the stale runner's next step never ran its tool")
                    .containsExactly(Thread.currentThread().getName());
            List<AgentCheckpoint> saved = storage.getCheckpoints(Pipeline.storedRunId("taken"));
            assertThat(saved)
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactly(
                            Pipeline.START_NODE_ID,
                            Pipeline.START_NODE_ID,
                            "pack",
                            "ship",
                            AgentCheckpoint.TOMBSTONE_NODE_ID);
            assertThat(saved.get(1).metadata()).containsKey(Pipeline.CLAIMED_METADATA_KEY);
            String taker = saved.get(1).metadata().get(RunCheckpoints.RUNNER_KEY);
            assertThat(saved.subList(1, 4))
                    .as("after its first checkpoint the stale runner stored nothing")
                    .allSatisfy(cp -> assertThat(cp.metadata()).containsEntry(RunCheckpoints.RUNNER_KEY, taker));
            assertThat(saved.get(0).metadata().get(RunCheckpoints.RUNNER_KEY)).isNotEqualTo(taker);
        } finally {
            threads.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inmemory", "sqlite"})
    void aRunnerOvertakenInsideANodeCannotCallAnotherToolOfThatNode(String kind) throws Exception {
        ExecutorService threads = Executors.newSingleThreadExecutor();
        var entered = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var blockOnce = new AtomicBoolean(true);
        var labelledBy = new CopyOnWriteArrayList<String>();
        Tool reserve = Tool.of("reserve", args -> TextNode.valueOf("reserved"));
        Tool label = Tool.of("label", args -> {
            labelledBy.add(Thread.currentThread().getName());
            return TextNode.valueOf("labelled");
        });
        try (var storage = storage(kind)) {
            var pipeline = Pipeline.builder("parcels", StateCodec.jackson(String.class))
                    .storage(storage)
                    .node(Node.of("pack", ctx -> {
                        ctx.callTool(reserve, null);
                        if (blockOnce.getAndSet(false)) {
                            entered.countDown();
                            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                        }
                        ctx.callTool(label, null);
                        return ctx.state() + " packed";
                    }))
                    .build();
            Future<PipelineResult<String>> stale = threads.submit(() -> pipeline.run("parcel", "box"));
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

            var takeover = pipeline.run("parcel", "ignored");
            release.countDown();

            assertThat(takeover.isCompleted()).isTrue();
            assertThatThrownBy(() -> stale.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(RunBusyException.class);
            assertThat(labelledBy)
                    .as("the overtaken runner never called the next tool of its node")
                    .containsExactly(Thread.currentThread().getName());
        } finally {
            threads.shutdownNow();
        }
    }
}
