package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waits between node retries and between checkpoint save retries, through an injected sleeper. */
class BackoffTest {
    private final OutageStorage storage = new OutageStorage(Storages.inMemory());
    private final RecordingSleeper sleeper = new RecordingSleeper();
    private final RecordingListener events = new RecordingListener();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void exponentialBackoffIsCappedAndValidated() {
        Backoff backoff = Backoff.exponential(Duration.ofSeconds(1), 3.0, Duration.ofSeconds(5));
        assertThat(List.of(1, 2, 3, 4).stream().map(backoff::delayBeforeRetry))
                .containsExactly(
                        Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(Backoff.fixed(Duration.ofMillis(7)).delayBeforeRetry(9)).isEqualTo(Duration.ofMillis(7));
        assertThat(Backoff.none().delayBeforeRetry(1)).isZero();
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(2), 2, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.fixed(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.custom().maxRetries(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RetryPolicy.ofDefaults().maxRetries()).isEqualTo(3);
        assertThat(RetryPolicy.ofDefaults().maxAttempts()).isEqualTo(4);
        assertThat(RetryPolicy.from(RetryPolicy.ofDefaults())
                        .maxRetries(1)
                        .build()
                        .maxRetries())
                .isEqualTo(1);
    }

    @Test
    void nodeRetriesWaitTheBackoffBeforeEachRetryAndNotAfterTheLastAttempt() {
        var pipeline = Pipeline.builder("backoff", Draft.CODEC)
                .storage(storage)
                .sleeper(sleeper)
                .listener(events)
                .retryPolicy(RetryPolicy.custom()
                        .maxRetries(3)
                        .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1)))
                        .build())
                .node(Node.<Draft>builder("stubborn")
                        .postcondition(Conditions.of("never", d -> false, d -> "never satisfied"))
                        .action(ctx -> ctx.state().append("x", "stubborn"))
                        .build())
                .build();

        var result = pipeline.run("backoff-1", Draft.empty());

        assertThat(result.failure()).get().extracting(PipelineFailure::attempts).isEqualTo(4);
        assertThat(sleeper.sleeps())
                .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(events.of(PipelineEvent.RetryScheduled.class))
                .extracting(PipelineEvent.RetryScheduled::delay)
                .containsExactlyElementsOf(sleeper.sleeps());
    }

    @Test
    void aNodesOwnPolicyOverridesThePipelines() {
        var pipeline = Pipeline.builder("backoff", Draft.CODEC)
                .storage(storage)
                .sleeper(sleeper)
                .node(Node.<Draft>builder("quick")
                        .retryPolicy(RetryPolicy.custom()
                                .maxRetries(1)
                                .backoff(Backoff.fixed(Duration.ofMillis(50)))
                                .build())
                        .action(ctx -> {
                            throw new IllegalStateException("always");
                        })
                        .build())
                .build();

        var result = pipeline.run("backoff-2", Draft.empty());

        assertThat(result.failure()).get().extracting(PipelineFailure::attempts).isEqualTo(2);
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofMillis(50));
    }

    @Test
    void unavailableStoreIsRetriedWithTheCheckpointPolicyUntilTheSaveGoesThrough() {
        storage.failSaves(2, BackoffTest::nodeBCheckpoint);
        var result = twoNodes(
                        RetryPolicy.custom()
                                .maxRetries(3)
                                .backoff(Backoff.fixed(Duration.ofMillis(250)))
                                .build(),
                        new AtomicInteger())
                .run("outage-1", Draft.empty());

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
        assertThat(events.of(PipelineEvent.CheckpointSaveFailed.class))
                .extracting(
                        PipelineEvent.CheckpointSaveFailed::saveAttempt, PipelineEvent.CheckpointSaveFailed::willRetry)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, true), org.assertj.core.groups.Tuple.tuple(2, true));
        assertThat(events.of(PipelineEvent.CheckpointSaved.class))
                .filteredOn(s -> s.node().equals("b"))
                .singleElement()
                .extracting(PipelineEvent.CheckpointSaved::saveAttempts)
                .isEqualTo(3);
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("outage-1")))
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(Pipeline.START_NODE_ID, "a", "b", AgentCheckpoint.TOMBSTONE_NODE_ID);
    }

    @Test
    void storeStillDownAfterTheRetriesFailsTheRunAndRollsTheNodeBackUntilResumed() {
        var toolCalls = new AtomicInteger();
        storage.failSaves(100, BackoffTest::nodeBCheckpoint);
        var pipeline = twoNodes(
                RetryPolicy.custom()
                        .maxRetries(2)
                        .backoff(Backoff.fixed(Duration.ofMillis(10)))
                        .build(),
                toolCalls);

        var failed = pipeline.run("outage-2", Draft.empty());

        assertThat(failed.failure()).get().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(PipelineFailure.Reason.CHECKPOINT_FAILED);
            assertThat(f.node()).isEqualTo("b");
            assertThat(f.attempts()).isEqualTo(1);
            assertThat(f.exception()).isInstanceOf(StorageUnavailableException.class);
        });
        assertThat(storage.failedSaves()).isEqualTo(3);
        assertThat(failed.state().steps()).containsExactly("a");
        assertThat(toolCalls).hasValue(0);
        assertThat(events.of(PipelineEvent.CheckpointSaveFailed.class))
                .extracting(PipelineEvent.CheckpointSaveFailed::willRetry)
                .containsExactly(true, true, false);
        assertThat(events.of(PipelineEvent.RollbackPerformed.class))
                .singleElement()
                .satisfies(r -> assertThat(r.toolRollback().performed()).hasSize(1));

        storage.failSaves(0, cp -> true);
        var resumed = pipeline.run("outage-2", Draft.empty());

        assertThat(resumed.isCompleted()).isTrue();
        assertThat(resumed.resumedAfter()).contains("a");
        assertThat(resumed.executedNodes()).containsExactly("b");
        assertThat(resumed.state().steps()).containsExactly("a", "b");
        assertThat(toolCalls).hasValue(1);
    }

    @Test
    void unavailableStoreWhenLoadingIsRetriedThenReported() {
        var pipeline = twoNodes(
                RetryPolicy.custom()
                        .maxRetries(2)
                        .backoff(Backoff.fixed(Duration.ofMillis(5)))
                        .build(),
                new AtomicInteger());
        storage.failLoads(2);
        assertThat(pipeline.run("outage-4", Draft.empty()).isCompleted()).isTrue();
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofMillis(5), Duration.ofMillis(5));

        storage.failLoads(3);
        assertThatThrownBy(() -> pipeline.run("outage-5", Draft.empty()))
                .isInstanceOf(StorageUnavailableException.class);
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("outage-5"))).isEmpty();
    }

    @Test
    void unavailableStoreAtTheStartFailsTheRunBeforeAnyNode() {
        var pipeline = twoNodes(RetryPolicy.custom().maxRetries(1).build(), new AtomicInteger());
        storage.failSaves(100, cp -> true);
        var result = pipeline.run("outage-3", Draft.empty());
        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(PipelineFailure.Reason.CHECKPOINT_FAILED);
            assertThat(f.node()).isEqualTo(Pipeline.START_NODE_ID);
        });
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("outage-3"))).isEmpty();
    }

    /** Nodes "a" and "b"; "b" calls a tool whose inverse decrements {@code toolCalls}. */
    private Pipeline<Draft> twoNodes(RetryPolicy checkpointRetry, AtomicInteger toolCalls) {
        Tool increment = Tool.of("increment", args -> TextNode.valueOf(Integer.toString(toolCalls.incrementAndGet())));
        return Pipeline.builder("outage", Draft.CODEC)
                .storage(storage)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback("increment", "decrement", args -> {
                            toolCalls.decrementAndGet();
                            return null;
                        })
                        .build())
                .sleeper(sleeper)
                .listener(events)
                .checkpointRetry(checkpointRetry)
                .node(Node.of("a", ctx -> ctx.state().append("a", "a")))
                .node(Node.of("b", ctx -> {
                    ctx.callTool(increment, null);
                    return ctx.state().append("b", "b");
                }))
                .build();
    }

    /**
     * A checkpoint of node b of the run (not an entry of the run's tool journal, whose entries name their node too).
     */
    private static boolean nodeBCheckpoint(AgentCheckpoint checkpoint) {
        return "b".equals(checkpoint.nodeId()) && !AgentNamespace.TOOL_JOURNALS.contains(checkpoint.agentId());
    }
}
