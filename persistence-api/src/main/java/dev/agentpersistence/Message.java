package dev.agentpersistence;

import dev.agentpersistence.internal.Maps;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of an agent's conversation.
 *
 * @param role     who produced the message
 * @param content  the text; never {@code null} ({@code null} becomes the empty string)
 * @param toolCall the requested call for {@link Role#TOOL_CALL} messages, else usually {@code null}
 * @param metadata free-form string attributes, kept sorted by key
 */
public record Message(Role role, String content, ToolCall toolCall, Map<String, String> metadata) {

    /** The author of a message. */
    public enum Role { SYSTEM, USER, ASSISTANT, TOOL_CALL, TOOL_RESULT }

    /** Metadata key holding the tool call id of a {@link Role#TOOL_RESULT} message. */
    public static final String TOOL_CALL_ID = "toolCallId";
    /** Metadata key holding the tool name of a {@link Role#TOOL_RESULT} message. */
    public static final String TOOL_NAME = "toolName";

    public Message {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        metadata = Maps.sortedStringMap(metadata, "metadata");
    }

    public static Message system(String content) {
        return new Message(Role.SYSTEM, content, null, Map.of());
    }

    public static Message user(String content) {
        return new Message(Role.USER, content, null, Map.of());
    }

    public static Message assistant(String content) {
        return new Message(Role.ASSISTANT, content, null, Map.of());
    }

    public static Message toolCall(ToolCall call) {
        Objects.requireNonNull(call, "call");
        return new Message(Role.TOOL_CALL, "", call, Map.of());
    }

    public static Message toolResult(String callId, String toolName, String content) {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(toolName, "toolName");
        return new Message(Role.TOOL_RESULT, content, null, Map.of(TOOL_CALL_ID, callId, TOOL_NAME, toolName));
    }

    /** Returns a copy with one more metadata entry. */
    public Message withMetadata(String key, String value) {
        var copy = new java.util.TreeMap<>(metadata);
        copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return new Message(role, content, toolCall, copy);
    }
}
