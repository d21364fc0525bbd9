package dev.agentpersistence;

import dev.agentpersistence.internal.LegacyMessageIds;
import dev.agentpersistence.internal.Maps;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One entry of an agent's conversation.
 *
 * <p>A message is a value: two messages saying the same thing are equal. An id is part of a message only when its
 * author or a framework gives one (it is then stored with the message and comes back unchanged, naming the message
 * across checkpoints, restarts and frameworks); the factories give none. A message stored without an id reads back with
 * an id derived from its place in the history and its content ({@link #hasDerivedId()}), the same on every read, so
 * frameworks that need ids get stable ones; a derived id is not part of the message's identity: such a message equals
 * the one that was saved without an id. {@link #newId()} makes a random id for callers that want one.
 *
 * @param id the message's id, or {@code null} when none was given
 * @param role who produced the message
 * @param content the text; never {@code null} ({@code null} becomes the empty string)
 * @param parts the message's content parts in order (text, images, audio, video, files); empty for a text-only message,
 *     whose text is {@code content}
 * @param toolCall the requested call for {@link Role#TOOL_CALL} messages, else usually {@code null}
 * @param metadata free-form string attributes, kept sorted by key
 */
public record Message(
        String id,
        Role role,
        String content,
        List<ContentPart> parts,
        ToolCall toolCall,
        Map<String, String> metadata) {

    /** The author of a message. */
    public enum Role {
        SYSTEM,
        USER,
        ASSISTANT,
        TOOL_CALL,
        TOOL_RESULT
    }

    /** Metadata key holding the tool call id of a {@link Role#TOOL_RESULT} message. */
    public static final String TOOL_CALL_ID = "toolCallId";
    /** Metadata key holding the tool name of a {@link Role#TOOL_RESULT} message. */
    public static final String TOOL_NAME = "toolName";

    public Message {
        id = id == null ? null : requireUsableId(id);
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        parts = parts == null || parts.isEmpty() ? List.of() : List.copyOf(parts);
        metadata = Maps.sortedStringMap(metadata, "metadata");
    }

    /** A message without an id and without content parts. */
    public Message(Role role, String content, ToolCall toolCall, Map<String, String> metadata) {
        this(null, role, content, List.of(), toolCall, metadata);
    }

    public static Message system(String content) {
        return new Message(Role.SYSTEM, content, null, Map.of());
    }

    public static Message user(String content) {
        return new Message(Role.USER, content, null, Map.of());
    }

    /**
     * A user message made of content parts; its {@code content} is the text of its text parts, joined by line breaks.
     */
    public static Message user(List<ContentPart> parts) {
        return new Message(null, Role.USER, textOf(parts), parts, null, Map.of());
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

    /** A new random message id. */
    public static String newId() {
        return UUID.randomUUID().toString();
    }

    /** Returns a copy with the given id. */
    public Message withId(String newId) {
        return new Message(
                requireUsableId(Objects.requireNonNull(newId, "id")), role, content, parts, toolCall, metadata);
    }

    /** Returns a copy with the given content parts. */
    public Message withParts(List<ContentPart> newParts) {
        return new Message(id, role, content, newParts, toolCall, metadata);
    }

    /** Returns a copy with one more metadata entry. */
    public Message withMetadata(String key, String value) {
        var copy = new java.util.TreeMap<>(metadata);
        copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return new Message(id, role, content, parts, toolCall, copy);
    }

    /**
     * Whether this message's id was derived on reading it (it was stored without one) rather than given by its author.
     */
    public boolean hasDerivedId() {
        return LegacyMessageIds.isDerived(id);
    }

    /** The id that is part of this message's identity: the given one, or {@code null} when none or a derived one. */
    private String identity() {
        return id == null || LegacyMessageIds.isDerived(id) ? null : id;
    }

    /**
     * Equal when both say the same thing ({@link #sameContentAs}) and carry the same given id; a message without an id
     * and one whose id was derived on reading count as having none.
     */
    @Override
    public boolean equals(Object other) {
        return this == other
                || other instanceof Message message
                        && Objects.equals(identity(), message.identity())
                        && sameContentAs(message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(identity(), role, content, parts, toolCall, metadata);
    }

    /** Whether {@code other} says the same thing: equal apart from the id. */
    public boolean sameContentAs(Message other) {
        return other != null
                && role == other.role
                && content.equals(other.content)
                && parts.equals(other.parts)
                && Objects.equals(toolCall, other.toolCall)
                && metadata.equals(other.metadata);
    }

    private static String requireUsableId(String id) {
        if (id.isEmpty() || id.length() > 256) {
            throw new IllegalArgumentException("a message id must have 1 to 256 characters, got " + id.length());
        }
        return id;
    }

    /** The text parts of {@code parts} joined by line breaks: the content of a message made of them. */
    public static String textOf(List<ContentPart> parts) {
        var text = new java.util.StringJoiner("\n");
        for (ContentPart part : Objects.requireNonNull(parts, "parts")) {
            if (part instanceof ContentPart.Text t) {
                text.add(t.text());
            }
        }
        return text.toString();
    }
}
