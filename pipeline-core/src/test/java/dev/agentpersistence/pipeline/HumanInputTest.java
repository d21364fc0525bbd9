package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes that wait for a person's answer: the run ends WAITING and {@code resume} continues it, also from a new pipeline
 * over the same SQLite store.
 */
class HumanInputTest {
    private static final AnswerSchema YES_NO = AnswerSchema.oneOf("yes", "no");

    @TempDir
    Path tmp;

    private final SteppingClock clock = new SteppingClock(Instant.parse("2026-03-01T09:00:00Z"));
    private final AtomicInteger planRuns = new AtomicInteger();
    private final List<String> effects = new CopyOnWriteArrayList<>();

    private PersistenceStorageProvider<CheckpointFilter> sqlite() {
        return PersistenceStorageProviders.load(
                "jdbc",
                ProviderConfig.of(Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + tmp.resolve("runs.db"))));
    }

    private Pipeline<String> pipeline(PersistenceStorageProvider<?> storage, PipelineListener... listeners) {
        Tool reserve = Tool.of("reserve", args -> {
            effects.add("reserved");
            return TextNode.valueOf("ok");
        });
        var builder = Pipeline.builder("approvals", StateCodec.jackson(String.class))
                .storage(storage)
                .clock(clock)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback("reserve", "release", args -> {
                            effects.remove("reserved");
                            return null;
                        })
                        .build())
                .node(Node.of("plan", ctx -> {
                    planRuns.incrementAndGet();
                    return ctx.state() + " planned";
                }))
                .node(Node.of("approve", ctx -> {
                    ctx.callTool(reserve, null);
                    String answer = ctx.awaitInput("Ship the plan?", YES_NO).asText();
                    return ctx.state() + " approved=" + answer;
                }));
        List.of(listeners).forEach(builder::listener);
        return builder.build();
    }

    @Test
    void aRunWaitsWithACheckpointAndIsResumedByANewPipelineOverTheSameSqliteStore() {
        var registry = new SimpleMeterRegistry();
        var events = new RecordingListener();
        try (var storage = sqlite()) {
            var first = pipeline(storage, events, PipelineMetrics.bindTo(registry));
            var waiting = first.run("order-7", "order");

            assertThat(waiting.isWaiting()).isTrue();
            assertThat(waiting.status()).isEqualTo(PipelineResult.Status.WAITING);
            assertThat(waiting.executedNodes()).containsExactly("plan");
            assertThat(waiting.state()).isEqualTo("order planned");
            assertThat(waiting.waitingFor()).get().satisfies(request -> {
                assertThat(request.runId()).isEqualTo("order-7");
                assertThat(request.node()).isEqualTo("approve");
                assertThat(request.requestId()).isEqualTo("approve#1");
                assertThat(request.question()).isEqualTo("Ship the plan?");
                assertThat(request.schema()).isEqualTo(YES_NO);
                assertThat(request.since()).isEqualTo(clock.instant());
            });
            assertThat(effects).as("the waiting attempt's tool call was undone").isEmpty();
            assertThat(first.waitingRuns()).extracting(InputRequest::runId).containsExactly("order-7");
            assertThat(first.run("order-7", "ignored").isWaiting())
                    .as("run() keeps waiting")
                    .isTrue();
            assertThatThrownBy(() -> first.resume("order-7", TextNode.valueOf("maybe")))
                    .isInstanceOf(InvalidAnswerException.class)
                    .hasMessageContaining("one of [\"yes\",\"no\"]");
        }
        clock.advance(Duration.ofHours(30));

        try (var storage = sqlite()) {
            var second = pipeline(storage, events, PipelineMetrics.bindTo(registry));
            assertThat(second.waitingRuns())
                    .singleElement()
                    .extracting(InputRequest::question)
                    .isEqualTo("Ship the plan?");

            var done = second.resume("order-7", TextNode.valueOf("yes"));

            assertThat(done.isCompleted()).as(done.toString()).isTrue();
            assertThat(done.state()).isEqualTo("order planned approved=yes");
            assertThat(done.executedNodes()).containsExactly("approve");
            assertThat(planRuns).hasValue(1);
            assertThat(effects).containsExactly("reserved");
            assertThat(second.waitingRuns()).isEmpty();
            assertThatThrownBy(() -> second.resume("order-7", TextNode.valueOf("yes")))
                    .isInstanceOf(RunNotWaitingException.class)
                    .hasMessageContaining("completed");
        }
        assertThat(events.of(PipelineEvent.InputReceived.class))
                .singleElement()
                .extracting(PipelineEvent.InputReceived::waited)
                .isEqualTo(Duration.ofHours(30));
        assertThat(registry.get(PipelineMetrics.INPUT_WAIT_DURATION)
                        .tag("node", "approve")
                        .timer()
                        .totalTime(java.util.concurrent.TimeUnit.HOURS))
                .isEqualTo(30.0);
        assertThat(registry.get(PipelineMetrics.INPUT_REQUESTS)
                        .tag("node", "approve")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(events.of(PipelineEvent.RunFinished.class))
                .extracting(PipelineEvent.RunFinished::status)
                .containsExactly(
                        PipelineResult.Status.WAITING, PipelineResult.Status.WAITING, PipelineResult.Status.COMPLETED);
    }

    @Test
    void aNodeWithTwoQuestionsKeepsTheFirstAnswerWhileWaitingOnTheSecond() {
        try (var storage = Storages.inMemory()) {
            var asked = new CopyOnWriteArrayList<String>();
            var pipeline = Pipeline.builder("form", StateCodec.jackson(String.class))
                    .storage(storage)
                    .node(Node.of("form", ctx -> {
                        var size = ctx.awaitInput("How many seats?", AnswerSchema.number(1, 9));
                        asked.add("seats " + size);
                        var details = ctx.awaitInput(
                                "Contact?",
                                AnswerSchema.object(Map.of("name", AnswerSchema.text(), "vip", AnswerSchema.yesNo())));
                        return "seats=" + size.asInt() + " name="
                                + details.get("name").asText() + " vip="
                                + details.get("vip").asBoolean();
                    }))
                    .build();

            assertThat(pipeline.run("form-1", "").waitingFor())
                    .get()
                    .extracting(InputRequest::requestId)
                    .isEqualTo("form#1");
            assertThatThrownBy(() -> pipeline.resume("form-1", IntNode.valueOf(12)))
                    .isInstanceOf(InvalidAnswerException.class)
                    .hasMessageContaining("at most 9.0");
            var second = pipeline.resume("form-1", IntNode.valueOf(3));
            assertThat(second.waitingFor())
                    .get()
                    .extracting(InputRequest::requestId)
                    .isEqualTo("form#2");
            var bad = JsonNodeFactory.instance.objectNode().put("name", "Ana");
            assertThatThrownBy(() -> pipeline.resume("form-1", bad))
                    .isInstanceOf(InvalidAnswerException.class)
                    .hasMessageContaining("answer.vip is required");

            var done = pipeline.resume(
                    "form-1",
                    JsonNodeFactory.instance.objectNode().put("name", "Ana").set("vip", BooleanNode.TRUE));

            assertThat(done.state()).isEqualTo("seats=3 name=Ana vip=true");
            assertThat(asked).containsExactly("seats 3", "seats 3");
        }
    }

    @Test
    void resumingARunThatDoesNotWaitIsRefused() {
        try (var storage = Storages.inMemory()) {
            var pipeline = Pipeline.builder("plain", StateCodec.jackson(String.class))
                    .storage(storage)
                    .node(Node.of("only", ctx -> ctx.state() + "!"))
                    .build();
            assertThatThrownBy(() -> pipeline.resume("nobody", TextNode.valueOf("x")))
                    .isInstanceOf(RunNotWaitingException.class)
                    .hasMessageContaining("no checkpoints");
        }
    }
}
