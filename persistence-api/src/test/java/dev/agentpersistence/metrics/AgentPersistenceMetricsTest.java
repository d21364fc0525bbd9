package dev.agentpersistence.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.Tool;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** {@link AgentPersistence} built with a registry meters its storage and its own operations. */
class AgentPersistenceMetricsTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Test
    void aRegistryWrapsTheStorageSoProviderCallsAreTimed() {
        var registry = new SimpleMeterRegistry();
        var heap = new HeapStorage();
        var persistence =
                AgentPersistence.builder().storage(heap).meterRegistry(registry).build();

        assertThat(persistence.storage()).isInstanceOf(MeteredStorageProvider.class);
        assertThat(((MeteredStorageProvider<?>) persistence.storage()).delegate())
                .isSameAs(heap);

        var context = new SimpleAgentContext("writer").append(Message.user("hi"));
        persistence.createCheckpoint(context, "node-a", null, null);
        persistence.createCheckpoint(context, "node-b", null, null);

        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SAVE)
                        .tags("provider", "heapstorage", "operation", "save", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_LOAD)
                        .tags("operation", "latest", "outcome", "not_found")
                        .timer()
                        .count())
                .as("first checkpoint: no parent")
                .isEqualTo(1);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SIZE).summary().count())
                .isEqualTo(2);
        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tags("kind", "checkpoint", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void rollbacksAndInverseCallsAreRecorded() throws Exception {
        var registry = new SimpleMeterRegistry();
        var undone = new java.util.ArrayList<String>();
        var tools = RollbackToolRegistry.builder()
                .registerRollback("placeOrder", "cancelOrder", args -> {
                    undone.add(args.get("orderId").asText());
                    return JSON.booleanNode(true);
                })
                .build();
        var persistence = AgentPersistence.builder()
                .storage(new HeapStorage())
                .rollbackTools(tools)
                .meterRegistry(registry)
                .build();
        var context = new SimpleAgentContext("shopper");
        var checkpoint = persistence.createCheckpoint(context, "start", null, null);
        context.callTool(
                Tool.of("placeOrder", args -> JSON.textNode("ok")),
                JSON.objectNode().put("orderId", "o-1"));

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), context);

        assertThat(report.isRestored()).isTrue();
        assertThat(undone).containsExactly("o-1");
        assertThat(registry.get("agent.persistence.rollback")
                        .tags("target", "checkpoint", "outcome", "restored")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.rollback.inverse.calls")
                        .tag("outcome", "success")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_LOAD)
                        .tags("operation", "get", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void anAlreadyMeteredStorageKeepsItsOwnProviderTag() {
        var registry = new SimpleMeterRegistry();
        var metered = MeteredStorageProvider.builder(new HeapStorage(), registry)
                .providerName("custom")
                .build();
        var persistence = AgentPersistence.builder()
                .storage(metered)
                .meterRegistry(registry)
                .build();

        assertThat(persistence.storage()).isSameAs(metered);
        persistence.createCheckpoint(new SimpleAgentContext("a"), "n", null, null);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SAVE)
                        .tag("provider", "custom")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void withoutARegistryTheStorageIsUsedAsGiven() {
        var heap = new HeapStorage();
        assertThat(AgentPersistence.builder().storage(heap).build().storage()).isSameAs(heap);
    }
}
