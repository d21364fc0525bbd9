package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.inmemory.InMemoryStorage;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A session service built with a registry observes its session operations, with the storage's spans inside them. */
class SessionObservationTest {

    @Test
    void sessionOperationsAreSpansAroundTheStorageCallsTheyMake() {
        var tracer = new SimpleTracer();
        var registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        try (var storage =
                InMemoryStorage.builder().observationRegistry(registry).build()) {
            var service = AgentPersistenceSessionService.builder(storage)
                    .observationRegistry(registry)
                    .build();
            var session = service.createSession("app", "user", null, "s1").blockingGet();
            service.appendEvent(session, AdkEvents.withDelta(Map.of("turn", 1), 1_000L))
                    .blockingGet();
            assertThat(service.getSession("app", "user", "s1", Optional.empty())
                            .blockingGet()
                            .events())
                    .hasSize(1);
            service.deleteSession("app", "user", "s1").blockingAwait();
        }

        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        List<SimpleSpan> sessionSpans = spans.stream()
                .filter(span -> span.getName().startsWith("agent.persistence conversation "))
                .toList();
        SimpleSpan append = sessionSpans.stream()
                .filter(span -> span.getName().equals("agent.persistence conversation append"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no append span in " + spans));
        assertThat(spans.stream()
                        .filter(span -> span.getParentId().equals(append.getSpanId()))
                        .map(SimpleSpan::getName))
                .as("the storage calls of the append are its children")
                .contains("agent.persistence latest", "agent.persistence save");
        assertThat(sessionSpans)
                .extracting(SimpleSpan::getName)
                .contains("agent.persistence conversation load", "agent.persistence conversation delete");
        assertThat(sessionSpans).allSatisfy(span -> assertThat(span.getTags()).containsEntry("outcome", "success"));
    }
}
