package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The data the tests seed: agent {@code support} with three checkpoints (a conversation that grows, a tool call and its
 * result, nodes and state that change) and agent {@code billing} with one.
 */
final class Fixtures {
    static final Instant T0 = Instant.parse("2026-03-01T10:15:30.123456789Z");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Fixtures() {}

    static List<AgentCheckpoint> support() {
        var history = new ArrayList<Message>();
        history.add(new Message("m-sys", Message.Role.SYSTEM, "You are a support agent.", null, null, Map.of()));
        history.add(new Message("m-user", Message.Role.USER, "Where is my order 42?", null, null, Map.of()));
        var v0 = AgentCheckpoint.builder()
                .checkpointId("support-cp-0")
                .agentId("support")
                .version(0)
                .createdAt(T0)
                .nodeId("triage")
                .messageHistory(history)
                .state("ticket", NODES.numberNode(42))
                .state("mood", NODES.textNode("worried"))
                .state("score", NODES.numberNode(new java.math.BigDecimal("12345678901234567890.123456789")))
                .state("ratio", NODES.numberNode(0.1))
                .metadata("tenant", "acme")
                .build();
        history.add(new Message(
                "m-call",
                Message.Role.TOOL_CALL,
                "",
                null,
                new ToolCall("call-1", "lookup_order", NODES.objectNode().put("order", 42)),
                Map.of()));
        history.add(Message.toolResult("call-1", "lookup_order", "shipped on March 2")
                .withId("m-result"));
        var v1 = v0.toBuilder()
                .checkpointId("support-cp-1")
                .version(1)
                .createdAt(T0.plusSeconds(60))
                .nodeId("lookup")
                .messageHistory(history)
                .state("mood", NODES.textNode("calm"))
                .parentCheckpointId("support-cp-0")
                .build();
        history.add(new Message(
                "m-answer", Message.Role.ASSISTANT, "Your order shipped on March 2.", null, null, Map.of()));
        var state = new java.util.LinkedHashMap<>(v1.state());
        state.remove("ticket");
        state.put("resolved", NODES.booleanNode(true));
        var v2 = v1.toBuilder()
                .checkpointId("support-cp-2")
                .version(2)
                .createdAt(T0.plusSeconds(86_400))
                .nodeId("answer")
                .messageHistory(history)
                .state(state)
                .parentCheckpointId("support-cp-1")
                .build();
        return List.of(v0, v1, v2);
    }

    static AgentCheckpoint billing() {
        return AgentCheckpoint.builder()
                .checkpointId("billing-cp-0")
                .agentId("billing")
                .version(0)
                .createdAt(T0.plusSeconds(30))
                .nodeId("invoice")
                .messageHistory(
                        List.of(new Message("b-user", Message.Role.USER, "Send the invoice", null, null, Map.of())))
                .build();
    }

    static void seed(PersistenceStorageProvider<CheckpointFilter> provider) {
        support().forEach(checkpoint -> provider.saveCheckpoint("support", checkpoint));
        provider.saveCheckpoint("billing", billing());
    }
}
