package dev.agentpersistence.inmemory;

import static dev.agentpersistence.tck.Checkpoints.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Callers cannot change stored checkpoints through JSON nodes they handed over or read back. */
class InMemoryIsolationTest {
    private final StorageShell provider = InMemoryStorage.builder().build();

    @AfterEach
    void close() {
        provider.close();
    }

    private AgentCheckpoint mutableCheckpoint(ObjectNode input, ObjectNode state, ObjectNode arguments) {
        return Checkpoints.builder("agent", 0)
                .lastInput(input)
                .state("doc", state)
                .message(
                        Message.toolCall(new ToolCall("c1", "write", arguments)).withId("call-message"))
                .build();
    }

    @Test
    void changingNodesAfterSaveDoesNotChangeTheStore() {
        var input = (ObjectNode) json("{\"a\":1}");
        var state = (ObjectNode) json("{\"list\":[1,2]}");
        var arguments = (ObjectNode) json("{\"path\":\"x\"}");
        var saved = mutableCheckpoint(input, state, arguments);
        var expected = mutableCheckpoint(input.deepCopy(), state.deepCopy(), arguments.deepCopy());
        provider.saveCheckpoint("agent", saved);

        input.put("a", 2);
        ((ArrayNode) state.get("list")).add(3);
        arguments.put("path", "/etc/passwd");

        assertThat(provider.getCheckpoints("agent")).containsExactly(expected);
        assertThat(provider.getCheckpoint("agent", "cp-0")).contains(expected);
        assertThat(provider.getLatestCheckpoint("agent")).contains(expected);
    }

    @Test
    void changingNodesReadBackDoesNotChangeTheStore() {
        var saved = mutableCheckpoint(
                (ObjectNode) json("{\"a\":1}"), (ObjectNode) json("{\"b\":[1]}"), (ObjectNode) json("{\"c\":true}"));
        provider.saveCheckpoint("agent", saved);

        var read = provider.getCheckpoints("agent").get(0);
        ((ObjectNode) read.lastInput()).put("a", 99);
        ((ObjectNode) read.state().get("doc")).removeAll();
        ((ObjectNode) read.messageHistory().get(1).toolCall().arguments()).put("c", false);
        var latest = provider.getLatestCheckpoint(
                        "agent", CheckpointFilter.builder().limit(1).build())
                .orElseThrow();
        ((ObjectNode) latest.lastInput()).put("z", 0);
        ((ObjectNode) provider.getCheckpoint("agent", "cp-0").orElseThrow().lastInput()).put("y", 0);

        assertThat(provider.getCheckpoints("agent")).containsExactly(saved);
        assertThat(provider.getCheckpoints(
                        "agent", CheckpointFilter.builder().limit(1).build()))
                .containsExactly(saved);
    }

    @Test
    void latestReadsRememberedAfterTheFirstStayIsolatedAndFollowNewSaves() {
        var saved = mutableCheckpoint(
                (ObjectNode) json("{\"a\":1}"), (ObjectNode) json("{\"b\":[1]}"), (ObjectNode) json("{\"c\":true}"));
        provider.saveCheckpoint("agent", saved);
        for (int read = 0; read < 3; read++) {
            var latest = provider.getLatestCheckpoint("agent").orElseThrow();
            assertThat(latest).isEqualTo(saved);
            ((ObjectNode) latest.lastInput()).put("a", 99);
            ((ObjectNode) latest.state().get("doc")).removeAll();
            ((ObjectNode) latest.messageHistory().get(1).toolCall().arguments()).put("c", false);
        }
        var next = Checkpoints.builder("agent", 1)
                .message(Message.user("plain").withId("m"))
                .build();
        provider.saveCheckpoint("agent", next);
        assertThat(provider.getLatestCheckpoint("agent")).contains(next);
        assertThat(provider.getLatestCheckpoint("agent"))
                .as("no mutable node: shared, immutable")
                .contains(next);
        provider.deleteCheckpoints("agent");
        assertThat(provider.getLatestCheckpoint("agent")).isEmpty();
    }

    @Test
    void readsHandOutFreshContainerNodes() {
        var saved = mutableCheckpoint((ObjectNode) json("{\"a\":1}"), (ObjectNode) json("{}"), (ObjectNode) json("{}"));
        provider.saveCheckpoint("agent", saved);
        var first = provider.getCheckpoints("agent").get(0);
        var second = provider.getCheckpoints("agent").get(0);
        assertThat(first).isEqualTo(second);
        assertThat(first.lastInput()).isNotSameAs(second.lastInput()).isNotSameAs(saved.lastInput());
    }

    @Test
    void checkpointsWithoutContainerNodesReadBackEqual() {
        var saved = Checkpoints.builder("agent", 0)
                .lastInput(json("\"text\""))
                .state("n", json("1"))
                .build();
        provider.saveCheckpoint("agent", saved);
        assertThat(provider.getCheckpoints("agent").get(0)).isEqualTo(saved);
    }

    @Test
    void instancesAreIndependentStores() {
        var other = InMemoryStorage.builder().build();
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        assertThat(other.getCheckpoints("agent")).isEmpty();
        assertThat(other.listAgents()).isEmpty();
        other.close();
        assertThat(provider.listAgents()).isEqualTo(List.of("agent"));
    }
}
