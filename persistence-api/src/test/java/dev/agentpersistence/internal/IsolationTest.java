package dev.agentpersistence.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IsolationTest {
    private static AgentCheckpoint.Builder checkpoint() {
        return AgentCheckpoint.builder()
                .checkpointId("c")
                .agentId("a")
                .version(1)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void aMutableInputIsCopiedAndAnImmutableStateIsShared() {
        ObjectNode input = JsonNodeFactory.instance.objectNode().put("task", "write");
        var original = checkpoint()
                .lastInput(input)
                .state("counter", IntNode.valueOf(3))
                .build();

        AgentCheckpoint copy = Isolation.copy(original);

        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        assertThat(copy.lastInput()).isEqualTo(input).isNotSameAs(original.lastInput());
        assertThat(copy.state()).as("nothing in it can change").isSameAs(original.state());
    }

    @Test
    void mutableStateValuesAreCopied() {
        ObjectNode plan = JsonNodeFactory.instance.objectNode().put("step", 1);
        var original = checkpoint()
                .state("plan", plan)
                .state("counter", IntNode.valueOf(3))
                .build();

        AgentCheckpoint copy = Isolation.copy(original);
        ((ObjectNode) copy.state().get("plan")).put("step", 2);

        assertThat(original.state().get("plan").get("step").asInt()).isEqualTo(1);
        assertThat(copy.state().get("counter")).isSameAs(original.state().get("counter"));
    }

    @Test
    void aCheckpointWithoutMutableNodesIsItsOwnCopy() {
        var original = checkpoint().state("counter", IntNode.valueOf(3)).build();
        assertThat(Isolation.copy(original)).isSameAs(original);
    }
}
