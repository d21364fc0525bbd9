package dev.agentpersistence.file;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.ArrayList;

/** Checkpoints for the file provider's own tests. */
final class TestCheckpoints {
    static final Instant T0 = Instant.parse("2025-01-02T03:04:05.123456789Z");

    private TestCheckpoints() {}

    /** A small checkpoint with a state entry naming {@code writer}, so writers produce different content. */
    static AgentCheckpoint checkpoint(String agentId, long version, String checkpointId, String writer) {
        return AgentCheckpoint.builder()
                .checkpointId(checkpointId)
                .agentId(agentId)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId("node-" + version)
                .message(Message.user("input " + version).withId("m-" + version))
                .state("writer", JsonNodeFactory.instance.textNode(writer))
                .metadata("writer", writer)
                .build();
    }

    static AgentCheckpoint checkpoint(String agentId, long version) {
        return checkpoint(agentId, version, "cp-" + version, "test");
    }

    /** Version {@code version} of a conversation growing by two messages per step from 20. */
    static AgentCheckpoint growing(String agentId, long version) {
        var messages = new ArrayList<Message>();
        for (int i = 0; i < 20 + 2 * version; i++) {
            messages.add(
                    i % 2 == 0
                            ? Message.user("question " + i).withId("m-" + i)
                            : Message.assistant("answer " + i).withId("m-" + i));
        }
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId("node-" + version)
                .messageHistory(messages)
                .build();
    }
}
