package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether two checkpoints have the same content as stored: equal fields, with JSON values compared by their JSON text
 * (so {@code 1} read back as another number type is still the same value), and message ids equal unless one side's was
 * derived on reading a document stored without ids (format 1, which cannot hold the other side's). The conflict rule of
 * every save uses it: the same content is an idempotent retry, anything else a conflict.
 */
public final class CheckpointContent {
    private CheckpointContent() {}

    /** Whether {@code a} and {@code b} would be stored alike. */
    public static boolean same(AgentCheckpoint a, AgentCheckpoint b) {
        if (a.equals(b)) {
            return true;
        }
        return a.checkpointId().equals(b.checkpointId())
                && a.agentId().equals(b.agentId())
                && a.version() == b.version()
                && a.createdAt().equals(b.createdAt())
                && Objects.equals(a.nodeId(), b.nodeId())
                && sameJson(a.lastInput(), b.lastInput())
                && Objects.equals(a.lastInputType(), b.lastInputType())
                && sameMessages(a.messageHistory(), b.messageHistory())
                && sameJson(a.state(), b.state())
                && a.metadata().equals(b.metadata())
                && Objects.equals(a.parentCheckpointId(), b.parentCheckpointId());
    }

    private static boolean sameMessages(List<Message> a, List<Message> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Message x = a.get(i);
            Message y = b.get(i);
            if (!x.equals(y)
                    && !(sameId(x.id(), y.id())
                            && x.role() == y.role()
                            && Objects.equals(x.content(), y.content())
                            && x.parts().equals(y.parts())
                            && x.metadata().equals(y.metadata())
                            && sameToolCall(x.toolCall(), y.toolCall()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameId(String a, String b) {
        return Objects.equals(a, b) || LegacyMessageIds.isDerived(a) || LegacyMessageIds.isDerived(b);
    }

    private static boolean sameToolCall(ToolCall a, ToolCall b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.id().equals(b.id()) && a.toolName().equals(b.toolName()) && sameJson(a.arguments(), b.arguments());
    }

    private static boolean sameJson(Map<String, JsonNode> a, Map<String, JsonNode> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (var entry : a.entrySet()) {
            if (!sameJson(entry.getValue(), b.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameJson(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(b) || a.toString().equals(b.toString());
    }
}
