package dev.agentpersistence.redis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import java.time.Instant;

/** Checkpoints for the Redis tests. */
final class Fixtures {
    static final Instant BASE = Instant.parse("2026-03-14T15:09:26.535897932Z");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {}

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** A small checkpoint: id {@code cp-<version>}, created {@code BASE + version s + version ns}. */
    static AgentCheckpoint.Builder builder(String agentId, long version) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(BASE.plusSeconds(version).plusNanos(version))
                .nodeId("node")
                .message(Message.user("message " + version).withId("m-" + version))
                .state("version", json(Long.toString(version)));
    }

    static AgentCheckpoint simple(String agentId, long version) {
        return builder(agentId, version).build();
    }
}
