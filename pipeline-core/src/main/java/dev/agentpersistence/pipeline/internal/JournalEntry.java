package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.ToolCall;

/**
 * One record of the write-ahead tool journal: the intent of a tool call (written before the tool runs), its result or
 * failure (written after), or the closing of an attempt whose calls were undone.
 *
 * @param kind what the entry records
 * @param node the node of the attempt
 * @param attempt the attempt's number
 * @param call the tool call (intent), or {@code null}
 * @param callId the call the entry is about, or {@code null} for {@link Kind#CLOSED}
 * @param key the call's idempotency key (intent), or {@code null}
 * @param result the tool's result ({@link Kind#RESULT}), or {@code null}
 * @param error the tool's failure ({@link Kind#FAILURE}), or {@code null}
 */
public record JournalEntry(
        Kind kind, String node, int attempt, ToolCall call, String callId, String key, JsonNode result, String error) {

    /** What an entry records. */
    public enum Kind {
        INTENT,
        RESULT,
        FAILURE,
        CLOSED
    }

    static JournalEntry intent(String node, int attempt, ToolCall call, String key) {
        return new JournalEntry(Kind.INTENT, node, attempt, call, call.id(), key, null, null);
    }

    static JournalEntry result(String node, int attempt, String callId, JsonNode result) {
        return new JournalEntry(Kind.RESULT, node, attempt, null, callId, null, result, null);
    }

    static JournalEntry failure(String node, int attempt, String callId, String error) {
        return new JournalEntry(Kind.FAILURE, node, attempt, null, callId, null, null, error);
    }

    static JournalEntry closed(String node, int attempt) {
        return new JournalEntry(Kind.CLOSED, node, attempt, null, null, null, null, null);
    }

    ObjectNode toJson() {
        var json = JsonNodeFactory.instance.objectNode();
        json.put("kind", kind.name());
        json.put("node", node);
        json.put("attempt", attempt);
        if (callId != null) {
            json.put("callId", callId);
        }
        if (call != null) {
            json.put("tool", call.toolName());
            json.set("arguments", call.arguments());
        }
        if (key != null) {
            json.put("key", key);
        }
        if (result != null) {
            json.set("result", result);
        }
        if (error != null) {
            json.put("error", error);
        }
        return json;
    }

    /** @throws IllegalArgumentException when the entry's kind is missing or unknown */
    static JournalEntry fromJson(JsonNode json) {
        String kindName = json.path("kind").asText();
        Kind kind;
        try {
            kind = Kind.valueOf(kindName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown journal entry kind '" + kindName + "'; known: " + java.util.Arrays.toString(Kind.values()),
                    e);
        }
        String callId = json.hasNonNull("callId") ? json.get("callId").asText() : null;
        ToolCall call =
                kind == Kind.INTENT ? new ToolCall(callId, json.path("tool").asText(), json.get("arguments")) : null;
        return new JournalEntry(
                kind,
                json.path("node").asText(),
                json.path("attempt").asInt(),
                call,
                callId,
                json.hasNonNull("key") ? json.get("key").asText() : null,
                json.get("result"),
                json.hasNonNull("error") ? json.get("error").asText() : null);
    }
}
