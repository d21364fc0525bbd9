package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.observation.AgentMeterHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A pipeline observes its run, node attempts and checkpoint saves and loads: with tracing they are spans, the storage's
 * spans inside them, and the same observations give the pipeline's timers.
 */
class PipelineObservationTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SimpleTracer tracer = new SimpleTracer();
    private final ObservationRegistry traced = ObservationRegistry.create();

    PipelineObservationTest() {
        traced.observationConfig()
                .observationHandler(new AgentMeterHandler(meters))
                .observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    @Test
    void aRunIsASpanHoldingItsNodeAttemptsAndCheckpointSpans() {
        var calls = new AtomicInteger();
        try (var storage = Storages.inMemory(traced)) {
            var pipeline = Pipeline.builder("traced", Draft.CODEC)
                    .node(Node.of("first", ctx -> ctx.state().append("a", "first")))
                    .node(Node.<Draft>builder("second")
                            .postcondition(Conditions.of(
                                    "ends with b", d -> d.text().endsWith("b"), d -> "text must end with b"))
                            .action(ctx -> ctx.state().append(calls.incrementAndGet() == 1 ? "x" : "b", "second"))
                            .build())
                    .storage(storage)
                    .observationRegistry(traced)
                    .build();

            assertThat(pipeline.run("run-1", Draft.empty()).isCompleted()).isTrue();
        }

        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        SimpleSpan run = only(spans, "agent.pipeline run");
        assertThat(run.getTags())
                .containsEntry("pipeline", "traced")
                .containsEntry("status", "completed")
                .containsEntry("reason", "none");
        assertThat(spans).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(run.getTraceId()));
        assertThat(children(spans, run))
                .extracting(SimpleSpan::getName)
                .contains(
                        "agent.pipeline checkpoint load",
                        "agent.pipeline node first",
                        "agent.pipeline node second",
                        "agent.pipeline checkpoint save");
        List<SimpleSpan> second = spans.stream()
                .filter(span -> span.getName().equals("agent.pipeline node second"))
                .toList();
        assertThat(second)
                .extracting(span -> span.getTags().get("outcome"))
                .containsExactly("validation_failed", "success");
        SimpleSpan save = spans.stream()
                .filter(span -> span.getName().equals("agent.pipeline checkpoint save"))
                .findFirst()
                .orElseThrow();
        List<SimpleSpan> created = children(spans, save);
        assertThat(created)
                .as("the facade's checkpoint creation is inside the pipeline's save")
                .extracting(SimpleSpan::getName)
                .containsExactly("agent.persistence create");
        assertThat(children(spans, created.get(0)))
                .as("and the storage's save inside that")
                .extracting(SimpleSpan::getName)
                .contains("agent.persistence save");
        SimpleSpan load = only(spans, "agent.pipeline checkpoint load");
        assertThat(load.getTags()).containsEntry("found", "false");

        assertThat(meters.get(PipelineMetrics.NODE_DURATION)
                        .tags("pipeline", "traced", "node", "second", "outcome", "validation_failed")
                        .timer()
                        .count())
                .as("the timers come from the same observations")
                .isEqualTo(1);
        assertThat(meters.get(PipelineMetrics.RUN_DURATION)
                        .tags("pipeline", "traced", "status", "completed", "reason", "none")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get(PipelineMetrics.CHECKPOINT_SAVE_DURATION)
                        .tag("pipeline", "traced")
                        .timer()
                        .count())
                .as("start, first, second and the completion tombstone")
                .isEqualTo(4);
    }

    private static SimpleSpan only(List<SimpleSpan> spans, String name) {
        List<SimpleSpan> named =
                spans.stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(named).as(name).hasSize(1);
        return named.get(0);
    }

    private static List<SimpleSpan> children(List<SimpleSpan> spans, SimpleSpan parent) {
        return spans.stream()
                .filter(span ->
                        Optional.ofNullable(span.getParentId()).orElse("").equals(parent.getSpanId()))
                .toList();
    }
}
