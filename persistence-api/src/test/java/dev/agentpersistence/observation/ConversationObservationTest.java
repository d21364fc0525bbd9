package dev.agentpersistence.observation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.history.MutableClock;
import dev.agentpersistence.memory.ConversationStore;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.storage.MapBackend;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chat-memory operations are observations: one span and one timer each, with the storage's spans inside them. */
class ConversationObservationTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SimpleTracer tracer = new SimpleTracer();
    private final ObservationRegistry traced = ObservationRegistry.create();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T10:00:00Z"));

    ConversationObservationTest() {
        traced.observationConfig()
                .observationHandler(new AgentMeterHandler(meters))
                .observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    @Test
    void everyChatMemoryOperationIsASpanAroundTheStorageCallsItMakes() {
        try (var shell = MapBackend.shell(clock)
                .observationRegistry(traced)
                .providerName("map")
                .build()) {
            var store = ConversationStore.builder(shell)
                    .clock(clock)
                    .observationRegistry(traced)
                    .build();
            store.append("c1", Message.user("hello"));
            String first = store.load("c1").checkpoint().orElseThrow().checkpointId();
            store.replace("c1", List.of(Message.user("hello"), Message.assistant("hi")));
            store.clear("c1");
            store.rollbackTo("c1", first, RollbackToolRegistry.EMPTY);
            store.delete("c1");
        }

        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        List<SimpleSpan> conversation = spans.stream()
                .filter(span -> span.getName().startsWith("agent.persistence conversation "))
                .toList();
        assertThat(conversation)
                .extracting(SimpleSpan::getName)
                .containsExactly(
                        "agent.persistence conversation append",
                        "agent.persistence conversation load",
                        "agent.persistence conversation replace",
                        "agent.persistence conversation clear",
                        "agent.persistence conversation rollback",
                        "agent.persistence conversation delete");
        assertThat(conversation)
                .allSatisfy(span -> assertThat(span.getTags())
                        .containsEntry("outcome", "success")
                        .containsKey("operation"));
        SimpleSpan append = conversation.get(0);
        List<SimpleSpan> inAppend = spans.stream()
                .filter(span -> span.getParentId().equals(append.getSpanId()))
                .toList();
        assertThat(inAppend)
                .as("the storage calls of the append are its children")
                .extracting(SimpleSpan::getName)
                .containsExactly("agent.persistence latest", "agent.persistence save");
        assertThat(inAppend).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(append.getTraceId()));

        assertThat(meters.get(StorageMetricNames.CONVERSATION)
                        .tags("operation", "append", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get(StorageMetricNames.CONVERSATION).timers())
                .as("one timer per operation")
                .hasSize(6);
    }
}
