package dev.agentpersistence.file;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import java.time.Instant;

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
}
