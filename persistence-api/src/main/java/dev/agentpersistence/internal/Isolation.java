package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies that no caller shares. Records, strings, lists, maps and JSON value nodes in a checkpoint are
 * immutable; only JSON container nodes (objects and arrays) are not. So an isolated copy replaces just
 * the container nodes and returns everything else as is.
 */
public final class Isolation {
    private Isolation() {
    }

    /** Whether {@code node} is a mutable JSON object or array. */
    public static boolean isContainer(JsonNode node) {
        return node != null && node.isContainerNode();
    }

    /** {@code node}, or a deep copy of it when it is mutable. */
    public static JsonNode copy(JsonNode node) {
        return isContainer(node) ? node.deepCopy() : node;
    }

    /** Whether the message holds a mutable JSON node (tool call arguments that are an object or array). */
    public static boolean hasContainer(Message message) {
        return message.toolCall() != null && isContainer(message.toolCall().arguments());
    }

    /** {@code message}, or an equal copy with its own tool call arguments when they are mutable. */
    public static Message copy(Message message) {
        if (!hasContainer(message)) {
            return message;
        }
        ToolCall call = message.toolCall();
        return new Message(message.id(), message.role(), message.content(), message.parts(),
                new ToolCall(call.id(), call.toolName(), call.arguments().deepCopy()), message.metadata());
    }

    /** {@code messages} with every message {@linkplain #copy(Message) isolated}; a new list. */
    public static List<Message> copy(List<Message> messages) {
        var result = new ArrayList<Message>(messages.size());
        for (Message message : messages) {
            result.add(copy(message));
        }
        return result;
    }
}
