package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Less common ways a node fails, and what a passing node leaves in its checkpoint. */
class NodeFailureModesTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final RecordingListener events = new RecordingListener();

    @AfterEach
    void close() {
        storage.close();
    }

    private Pipeline.Builder<Draft> builder() {
        return Pipeline.builder("modes", Draft.CODEC).storage(storage).listener(events);
    }

    @Test
    void aPassingNodeIsCheckpointedWithItsOutputAndConversation() {
        var result = builder()
                .node(Node.of("greet", ctx -> {
                    ctx.addMessage(Message.user("hi"));
                    ctx.addMessage(Message.assistant("hello"));
                    assertThat(ctx.messageHistory()).hasSize(2);
                    return ctx.state().append("hello", "greet");
                }))
                .build()
                .run("modes-1", Draft.empty());

        AgentCheckpoint checkpoint = storage.getCheckpoints(
                        Pipeline.storedRunId("modes-1"),
                        CheckpointFilter.builder().nodeId("greet").build())
                .get(0);
        assertThat(checkpoint.agentId()).isEqualTo("@run/modes-1");
        assertThat(Draft.CODEC.decode(checkpoint.state().get("pipeline.state"))).isEqualTo(result.state());
        assertThat(checkpoint.state().get("pipeline").asText()).isEqualTo("modes");
        assertThat(checkpoint.messageHistory()).extracting(Message::content).containsExactly("hi", "hello");
        assertThat(checkpoint.parentCheckpointId())
                .isEqualTo(storage.getCheckpoints(Pipeline.storedRunId("modes-1"))
                        .get(0)
                        .checkpointId());
    }

    @Test
    void aViolatedPreconditionInALaterNodeStopsTheRunAfterTheEarlierOnes() {
        var reviewRuns = new AtomicInteger();
        var result = builder()
                .node(Node.of("draft", ctx -> ctx.state().append("draft without summary", "draft")))
                .node(Node.<Draft>builder("review")
                        .precondition(Conditions.of(
                                "summary", d -> d.text().contains("summary:"), d -> "draft has no `summary:` line"))
                        .precondition(
                                Conditions.countBetween("steps", d -> d.steps().size(), 2, 9))
                        .action(ctx -> {
                            reviewRuns.incrementAndGet();
                            return ctx.state();
                        })
                        .build())
                .build()
                .run("modes-2", Draft.empty());

        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(PipelineFailure.Reason.PRECONDITION_FAILED);
            assertThat(f.node()).isEqualTo("review");
            assertThat(f.violations())
                    .extracting(Violation::message)
                    .containsExactly("draft has no `summary:` line", "2-9 steps expected, found 1");
        });
        assertThat(reviewRuns).hasValue(0);
        assertThat(result.executedNodes()).containsExactly("draft");
        assertThat(result.state().steps()).containsExactly("draft");
    }

    @Test
    void aConditionThatThrowsCountsAsViolated() {
        var result = builder()
                .retryPolicy(RetryPolicy.noRetries())
                .node(Node.<Draft>builder("n")
                        .postcondition(Condition.of("fragile", d -> {
                            throw new IllegalStateException("cannot parse");
                        }))
                        .action(ctx -> ctx.state())
                        .build())
                .build()
                .run("modes-3", Draft.empty());

        assertThat(result.failure())
                .get()
                .extracting(PipelineFailure::violations)
                .asList()
                .containsExactly(new Violation(
                        "fragile", "could not be evaluated: java.lang.IllegalStateException: cannot parse"));
    }

    @Test
    void anActionReturningNullFailsTheAttempt() {
        var result = builder()
                .retryPolicy(RetryPolicy.noRetries())
                .node(Node.<Draft>of("n", ctx -> null))
                .build()
                .run("modes-4", Draft.empty());

        assertThat(result.failure())
                .get()
                .satisfies(f -> assertThat(f.exception())
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("returned null"));
    }

    @Test
    void mutableStateChangedInPlaceIsRestoredFromTheBackup() {
        var seen = new ArrayList<List<String>>();
        var result = Pipeline.builder(
                        "mutable",
                        StateCodec.jackson(new com.fasterxml.jackson.core.type.TypeReference<List<String>>() {}))
                .storage(storage)
                .node(Node.<List<String>>builder("grow")
                        .postcondition(Conditions.countBetween("items", List::size, 1, 1))
                        .action(ctx -> {
                            List<String> list = ctx.state();
                            seen.add(List.copyOf(list));
                            list.add("item");
                            if (ctx.attempt() == 1) {
                                list.add("one too many");
                            }
                            return list;
                        })
                        .build())
                .build()
                .run("modes-5", new ArrayList<>());

        assertThat(result.isCompleted()).isTrue();
        assertThat(seen).containsExactly(List.of(), List.of());
        assertThat(result.state()).containsExactly("item");
    }

    @Test
    void interruptionRollsBackAndStopsWithoutRetrying() {
        var attempts = new AtomicInteger();
        var result = builder()
                .node(Node.of("wait", ctx -> {
                    attempts.incrementAndGet();
                    throw new InterruptedException("shutting down");
                }))
                .build()
                .run("modes-6", Draft.empty());

        try {
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(attempts).hasValue(1);
        assertThat(result.failure())
                .get()
                .extracting(PipelineFailure::reason)
                .isEqualTo(PipelineFailure.Reason.INTERRUPTED);
        assertThat(events.of(PipelineEvent.RollbackPerformed.class)).hasSize(1);
        assertThat(events.of(PipelineEvent.NodeFailed.class))
                .singleElement()
                .satisfies(f -> assertThat(f.willRetry()).isFalse());
    }

    @Test
    void contextDescribesTheAttempt() {
        var contexts = new ArrayList<String>();
        builder()
                .retryPolicy(RetryPolicy.custom().maxRetries(1).build())
                .node(Node.<Draft>builder("n")
                        .postcondition(Conditions.of("second", d -> d.steps().size() == 1, d -> "first try"))
                        .action(ctx -> {
                            contexts.add(ctx.pipelineName() + "/" + ctx.runId() + "/" + ctx.nodeName() + " "
                                    + ctx.attempt() + "/" + ctx.maxAttempts() + " feedback="
                                    + ctx.retryFeedback()
                                            .map(f -> f.violations().get(0).message())
                                            .orElse("-"));
                            return ctx.attempt() == 1
                                    ? ctx.state()
                                    : ctx.state().append("", "n");
                        })
                        .build())
                .build()
                .run("modes-7", Draft.empty());

        assertThat(contexts)
                .containsExactly("modes/modes-7/n 1/2 feedback=-", "modes/modes-7/n 2/2 feedback=first try");
    }
}
