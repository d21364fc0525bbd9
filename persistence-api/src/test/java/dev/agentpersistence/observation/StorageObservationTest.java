package dev.agentpersistence.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.Tool;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.history.MutableClock;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.storage.MapBackend;
import dev.agentpersistence.storage.StorageShell;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shell and the facade observe every operation; the observations give the documented meters and spans. */
class StorageObservationTest {
    private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ObservationRegistry observations = AgentObservations.registryFor(meters);
    private final MutableClock clock = new MutableClock(T0);

    private StorageShell observedShell() {
        return MapBackend.shell(clock)
                .observationRegistry(observations)
                .providerName("map")
                .build();
    }

    private static AgentCheckpoint checkpoint(String agent, long version, int messages) {
        var history = new ArrayList<Message>();
        for (int i = 0; i < messages; i++) {
            history.add(Message.user("message " + i + " of checkpoint " + version));
        }
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .messageHistory(history)
                .build();
    }

    private double timerCount(String name, String... tags) {
        return meters.get(name).tags(tags).timer().count();
    }

    @Test
    void everyStorageOperationIsTimedWithProviderOperationAndOutcome() {
        try (var shell = observedShell()) {
            assertThat(shell.getLatestCheckpoint("a")).isEmpty();
            shell.saveCheckpoint("a", checkpoint("a", 0, 3));
            shell.saveCheckpoint("a", checkpoint("a", 1, 40));
            shell.getLatestCheckpoint("a");
            shell.getCheckpoint("a", "cp-0");
            shell.getCheckpoints("a", CheckpointFilter.builder().limit(1).build());
            shell.listAgents();
            shell.deleteCheckpointsBefore("a", 1);

            assertThat(timerCount(
                            StorageMetricNames.CHECKPOINT_SAVE,
                            "provider",
                            "map",
                            "operation",
                            "save",
                            "outcome",
                            "success"))
                    .isEqualTo(2);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "latest", "outcome", "not_found"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "latest", "outcome", "success"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "get", "outcome", "success"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "list", "outcome", "success"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.AGENTS_LIST, "operation", "list"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_DELETE, "operation", "delete_before"))
                    .isEqualTo(1);
        }
    }

    @Test
    void aBatchSaveIsOneObservationRecordingTheBytesItStored() {
        try (var shell = observedShell()) {
            shell.saveCheckpoint("a", checkpoint("a", 0, 5));
            var results = shell.saveCheckpoints(List.of(
                    checkpoint("a", 0, 5), // an idempotent retry stores nothing
                    checkpoint("a", 1, 40),
                    checkpoint("b", 0, 3),
                    checkpoint("b", 0, 4))); // another checkpoint at b's version 0: a conflict, stores nothing

            assertThat(results).extracting(result -> result.saved()).containsExactly(true, true, true, false);
            assertThat(timerCount(
                            StorageMetricNames.CHECKPOINT_SAVE,
                            "provider",
                            "map",
                            "operation",
                            "save_batch",
                            "outcome",
                            "success"))
                    .isEqualTo(1);
            long stored = 0;
            for (String agent : List.of("a", "b")) {
                stored += shell.storedForm().orElseThrow().documents(agent, CheckpointFilter.ALL).stream()
                        .mapToLong(StoredDocument::size)
                        .sum();
            }
            var size = meters.get(StorageMetricNames.CHECKPOINT_SIZE)
                    .tag("provider", "map")
                    .summary();
            assertThat(size.count()).as("one single save, one batch").isEqualTo(2);
            assertThat((long) size.totalAmount()).isEqualTo(stored);
        }
    }

    @Test
    void theSizeIsWhatTheBackendStoredWithoutEncodingAgain() {
        try (var shell = observedShell()) {
            shell.saveCheckpoint("a", checkpoint("a", 0, 5));
            var second = checkpoint("a", 1, 200);
            shell.saveCheckpoint("a", second);
            shell.saveCheckpoint("a", second); // an idempotent retry stores nothing

            long stored = shell.storedForm().orElseThrow().documents("a", CheckpointFilter.ALL).stream()
                    .mapToLong(StoredDocument::size)
                    .sum();
            var size = meters.get(StorageMetricNames.CHECKPOINT_SIZE)
                    .tag("provider", "map")
                    .summary();
            assertThat(size.count()).isEqualTo(2);
            assertThat((long) size.totalAmount()).isEqualTo(stored);
        }
    }

    @Test
    void conflictsAndErrorsAreCountedByProviderOperationAndException() {
        var shell = observedShell();
        shell.saveCheckpoint("a", checkpoint("a", 0, 1));
        assertThatThrownBy(() -> shell.saveCheckpoint("a", checkpoint("a", 0, 2)))
                .isInstanceOf(CheckpointConflictException.class);
        shell.close();
        assertThatThrownBy(() -> shell.getLatestCheckpoint("a")).isInstanceOf(IllegalStateException.class);

        assertThat(timerCount(StorageMetricNames.CHECKPOINT_SAVE, "outcome", "conflict"))
                .isEqualTo(1);
        assertThat(meters.get(StorageMetricNames.CHECKPOINT_CONFLICTS)
                        .tag("provider", "map")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get(StorageMetricNames.ERRORS)
                        .tags("provider", "map", "operation", "latest", "exception", "IllegalStateException")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "latest", "outcome", "error"))
                .isEqualTo(1);
    }

    @Test
    void withTracingEveryOperationIsASpanWithTheSameKeys() {
        var tracer = new SimpleTracer();
        var traced = ObservationRegistry.create();
        traced.observationConfig()
                .observationHandler(new AgentMeterHandler(meters))
                .observationHandler(new DefaultTracingObservationHandler(tracer));
        try (var shell = MapBackend.shell(clock)
                .observationRegistry(traced)
                .providerName("map")
                .build()) {
            shell.saveCheckpoint("a", checkpoint("a", 0, 2));
            shell.getLatestCheckpoint("a");
        }
        List<SimpleSpan> spans = new ArrayList<>(tracer.getSpans());
        assertThat(spans)
                .extracting(SimpleSpan::getName)
                .containsExactly("agent.persistence save", "agent.persistence latest");
        assertThat(spans.get(0).getTags())
                .containsEntry("provider", "map")
                .containsEntry("operation", "save")
                .containsEntry("outcome", "success");
        assertThat(spans).allSatisfy(span -> assertThat(span.getEndTimestamp()).isAfter(span.getStartTimestamp()));
        assertThat(timerCount(StorageMetricNames.CHECKPOINT_SAVE, "outcome", "success"))
                .as("the meters come from the same observations")
                .isEqualTo(1);
    }

    @Test
    void anObservedProviderKeepsExpirySegmentsAndHealth() {
        try (var shell = observedShell()) {
            for (long version = 0; version < 30; version++) {
                shell.saveCheckpoint("a", checkpoint("a", version, 40 + (int) version * 2));
                shell.saveCheckpoint("b", checkpoint("b", version, 40 + (int) version * 2));
            }
            assertThat(shell.storedForm()).isPresent();
            assertThat(shell.storedForm().get().hasSegments()).isTrue();
            shell.deleteCheckpoints("b"); // its segments stay for the grace period
            assertThat(shell.storedForm().get().listSegmentAgents()).containsExactly("a", "b");
            clock.advance(Duration.ofHours(2)); // past the default grace period of one hour
            var report = RetentionSweeper.builder(shell)
                    .clock(clock)
                    .policy(RetentionPolicy.custom().keepLatest(2).build())
                    .build()
                    .sweep();
            assertThat(report.checkpointsDeleted()).isEqualTo(28);
            assertThat(report.segmentsDeleted())
                    .as("b's segments, after the grace period")
                    .isPositive();
            assertThat(shell.storedForm().get().listSegmentAgents()).containsExactly("a");
            assertThat(shell.getLatestCheckpoint("a").orElseThrow().messageHistory())
                    .hasSize(40 + 29 * 2);
            shell.checkHealth();
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_DELETE, "operation", "delete_expired"))
                    .as("the sweep asked for expiry through the provider")
                    .isEqualTo(1);
        }
    }

    @Test
    void theFacadeObservesCreationRollbacksAndInverseCalls() throws Exception {
        var undone = new ArrayList<String>();
        var tools = RollbackToolRegistry.builder()
                .registerRollback("placeOrder", "cancelOrder", args -> {
                    undone.add(args.get("orderId").asText());
                    return JSON.booleanNode(true);
                })
                .build();
        try (var shell = observedShell()) {
            var persistence = AgentPersistence.builder()
                    .storage(shell)
                    .rollbackTools(tools)
                    .observationRegistry(observations)
                    .build();
            var context = new SimpleAgentContext("shopper");
            var checkpoint = persistence.createCheckpoint(context, "start", null, null);
            context.callTool(
                    Tool.of("placeOrder", args -> JSON.textNode("ok")),
                    JSON.objectNode().put("orderId", "o-1"));
            var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), context);

            assertThat(report.isRestored()).isTrue();
            assertThat(undone).containsExactly("o-1");
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_CREATE, "kind", "checkpoint", "outcome", "success"))
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.ROLLBACK, "target", "checkpoint", "outcome", "restored"))
                    .isEqualTo(1);
            assertThat(meters.get(StorageMetricNames.INVERSE_CALLS)
                            .tag("outcome", "success")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(timerCount(StorageMetricNames.CHECKPOINT_LOAD, "operation", "get", "outcome", "success"))
                    .as("the storage underneath observes its own calls")
                    .isEqualTo(1);
        }
    }

    @Test
    void withoutARegistryNothingIsObservedAndTheProviderIsTheShellItself() {
        try (var shell = MapBackend.shell(clock).build()) {
            shell.saveCheckpoint("a", checkpoint("a", 0, 1));
            var persistence = AgentPersistence.builder().storage(shell).build();
            assertThat(persistence.storage()).isSameAs(shell);
        }
        assertThat(meters.find(StorageMetricNames.CHECKPOINT_SAVE).timers()).isEmpty();
        assertThat(meters.find(StorageMetricNames.CHECKPOINT_CREATE).timers()).isEmpty();
    }
}
