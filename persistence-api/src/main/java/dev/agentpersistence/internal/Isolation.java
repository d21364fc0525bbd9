package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies that no caller shares. Records, strings, lists, maps and JSON value nodes in a checkpoint are immutable; only
 * JSON container nodes (objects and arrays) are not. So an isolated copy replaces just the container nodes and returns
 * everything else as is.
 */
public final class Isolation {
    private Isolation() {}

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
        return new Message(
                message.id(),
                message.role(),
                message.content(),
                message.parts(),
                new ToolCall(call.id(), call.toolName(), call.arguments().deepCopy()),
                message.metadata());
    }

    /** Whether the checkpoint holds a mutable JSON node: its input, a state value or tool call arguments. */
    public static boolean hasContainer(AgentCheckpoint checkpoint) {
        return hasContainerOutsideHistory(checkpoint) || historyHasContainer(checkpoint);
    }

    /** Whether the checkpoint's input or a state value is a mutable JSON node. */
    public static boolean hasContainerOutsideHistory(AgentCheckpoint checkpoint) {
        return isContainer(checkpoint.lastInput()) || stateHasContainer(checkpoint);
    }

    /** Whether a state value of the checkpoint is a mutable JSON node. */
    private static boolean stateHasContainer(AgentCheckpoint checkpoint) {
        for (JsonNode value : checkpoint.state().values()) {
            if (isContainer(value)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a message of the history holds a mutable JSON node. */
    public static boolean historyHasContainer(AgentCheckpoint checkpoint) {
        for (Message message : checkpoint.messageHistory()) {
            if (hasContainer(message)) {
                return true;
            }
        }
        return false;
    }

    /** {@code checkpoint}, or an equal copy with its own mutable JSON nodes when it holds any. */
    public static AgentCheckpoint copy(AgentCheckpoint checkpoint) {
        boolean historyMutable = historyHasContainer(checkpoint);
        if (!historyMutable && !hasContainerOutsideHistory(checkpoint)) {
            return checkpoint;
        }
        return copy(checkpoint, historyMutable);
    }

    /**
     * An equal copy with its own input and state nodes, and its own history when {@code copyHistory}; for callers that
     * know whether the history holds a mutable node.
     */
    public static AgentCheckpoint copy(AgentCheckpoint checkpoint, boolean copyHistory) {
        Map<String, JsonNode> state = checkpoint.state();
        if (stateHasContainer(checkpoint)) {
            var copied = new LinkedHashMap<String, JsonNode>();
            state.forEach((key, value) -> copied.put(key, copy(value)));
            state = copied;
        }
        return new AgentCheckpoint(
                checkpoint.checkpointId(),
                checkpoint.agentId(),
                checkpoint.version(),
                checkpoint.createdAt(),
                checkpoint.nodeId(),
                copy(checkpoint.lastInput()),
                checkpoint.lastInputType(),
                copyHistory ? copy(checkpoint.messageHistory()) : checkpoint.messageHistory(),
                state,
                checkpoint.metadata(),
                checkpoint.parentCheckpointId());
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
