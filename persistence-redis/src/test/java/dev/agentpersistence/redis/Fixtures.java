package dev.agentpersistence.redis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.Map;

/** Checkpoints for the Redis tests. */
final class Fixtures {
    static final Instant BASE = Instant.parse("2026-03-14T15:09:26.535897932Z");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {
    }

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
                .message(Message.user("message " + version))
                .state("version", json(Long.toString(version)));
    }

    static AgentCheckpoint simple(String agentId, long version) {
        return builder(agentId, version).build();
    }

    /** Every field set, unicode and every JSON type included. */
    static AgentCheckpoint full(String agentId, long version) {
        return builder(agentId, version)
                .nodeId("ノード {tag}:x")
                .lastInput(json("{\"q\":\"naïve 🙂\",\"n\":[1,2.5,-3,true,null,{\"deep\":[]}]}"))
                .lastInputType("com.example.Question")
                .parentCheckpointId("cp-parent {x}")
                .message(Message.system("sys"))
                .message(Message.assistant("answer \u0000 with nul and \"quotes\""))
                .message(Message.toolCall(new ToolCall("call-1", "search", json("{\"q\":\"redis\"}"))))
                .message(Message.toolResult("call-1", "search", "result"))
                .state(Map.of("a", json("\"text\""), "b", json("42"), "c", json("[1,{\"x\":null}]"), "d", json("null")))
                .metadata(Map.of("env", "prod", "😀", "väl {ue}", "empty", ""))
                .build();
    }
}
