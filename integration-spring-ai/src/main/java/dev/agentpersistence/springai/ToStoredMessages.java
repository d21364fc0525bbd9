package dev.agentpersistence.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.Message.Role;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.content.Media;
import org.springframework.ai.content.MediaContent;

/**
 * Spring AI messages as stored {@link Message}s. One Spring AI message becomes:
 *
 * <ul>
 *   <li>system, user: one {@code SYSTEM} / {@code USER} message; media become content parts after a text part;
 *   <li>assistant: one {@code ASSISTANT} message, then one {@code TOOL_CALL} message per tool call, so rollback and the
 *       window rules see every call;
 *   <li>tool response: one {@code TOOL_RESULT} message per response, each naming its call.
 * </ul>
 *
 * What the common model has no field for goes into metadata under {@link StoredKeys}; a message maps to the same stored
 * messages every time (apart from their random ids).
 */
final class ToStoredMessages {

    private ToStoredMessages() {}

    /**
     * The stored form of {@code messages}.
     *
     * @throws ChatMemoryMappingException naming the message that cannot be stored
     */
    static List<Message> of(String conversationId, List<org.springframework.ai.chat.messages.Message> messages) {
        List<Message> stored = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            try {
                append(messages.get(i), stored);
            } catch (IllegalArgumentException e) {
                throw new ChatMemoryMappingException(conversationId, i, e.getMessage(), e);
            }
        }
        return stored;
    }

    private static void append(org.springframework.ai.chat.messages.Message message, List<Message> stored) {
        Map<String, String> metadata = new HashMap<>();
        putMetadata(message, metadata);
        MessageType type = message.getMessageType();
        if (message instanceof ToolResponseMessage responses) {
            appendResponses(responses, metadata, stored);
            return;
        }
        List<ContentPart> parts = message instanceof MediaContent withMedia
                ? parts(message.getText(), withMedia.getMedia(), metadata)
                : List.of();
        List<String> nulls = new ArrayList<>();
        String text = orEmpty(message.getText(), "text", nulls);
        if (type == MessageType.ASSISTANT) {
            List<AssistantMessage.ToolCall> calls =
                    message instanceof AssistantMessage assistant ? assistant.getToolCalls() : List.of();
            if (!calls.isEmpty()) {
                metadata.put(StoredKeys.TOOL_CALLS, Integer.toString(calls.size()));
            }
            putNulls(nulls, metadata);
            stored.add(new Message(null, Role.ASSISTANT, text, parts, null, metadata));
            calls.forEach(call -> stored.add(toolCall(call)));
            return;
        }
        putNulls(nulls, metadata);
        Role role = switch (type) {
            case SYSTEM -> Role.SYSTEM;
            case USER -> Role.USER;
            default ->
                throw new IllegalArgumentException(
                        "a " + type + " message of class " + message.getClass().getName()
                                + " cannot be stored; tool messages must be ToolResponseMessage");
        };
        stored.add(new Message(null, role, text, parts, null, metadata));
    }

    private static void putMetadata(
            org.springframework.ai.chat.messages.Message message, Map<String, String> metadata) {
        Map<String, Object> own = new HashMap<>(message.getMetadata());
        // Spring AI's message constructors put the type under this key themselves.
        own.remove(AbstractMessage.MESSAGE_TYPE);
        if (!own.isEmpty()) {
            metadata.put(StoredKeys.METADATA, MetadataValues.write(own));
        }
    }

    private static List<ContentPart> parts(String text, List<Media> media, Map<String, String> metadata) {
        if (media.isEmpty()) {
            return List.of();
        }
        List<ContentPart> parts = new ArrayList<>(media.size() + 1);
        if (text != null && !text.isEmpty()) {
            parts.add(ContentPart.text(text));
        }
        for (int i = 0; i < media.size(); i++) {
            parts.add(MediaParts.toPart(media.get(i), i, metadata));
        }
        return parts;
    }

    private static Message toolCall(AssistantMessage.ToolCall call) {
        Map<String, String> metadata = new HashMap<>();
        List<String> nulls = new ArrayList<>();
        String id = orEmpty(call.id(), "id", nulls);
        String name = orEmpty(call.name(), "name", nulls);
        if (call.type() == null) {
            nulls.add("type");
        } else {
            metadata.put(StoredKeys.TOOL_TYPE, call.type());
        }
        JsonNode arguments;
        if (call.arguments() == null) {
            nulls.add("arguments");
            arguments = null;
        } else {
            arguments = ToolCall.argumentsOf(call.arguments());
            if (!call.arguments().equals(arguments.toString())) {
                metadata.put(StoredKeys.ARGUMENTS, call.arguments());
            }
        }
        putNulls(nulls, metadata);
        return new Message(null, Role.TOOL_CALL, "", List.of(), new ToolCall(id, name, arguments), metadata);
    }

    private static void appendResponses(
            ToolResponseMessage message, Map<String, String> metadata, List<Message> stored) {
        List<ToolResponseMessage.ToolResponse> responses = message.getResponses();
        metadata.put(StoredKeys.RESPONSES, Integer.toString(responses.size()));
        if (responses.isEmpty()) {
            stored.add(new Message(null, Role.TOOL_RESULT, "", List.of(), null, metadata));
            return;
        }
        for (ToolResponseMessage.ToolResponse response : responses) {
            List<String> nulls = new ArrayList<>();
            metadata.put(Message.TOOL_CALL_ID, orEmpty(response.id(), "id", nulls));
            metadata.put(Message.TOOL_NAME, orEmpty(response.name(), "name", nulls));
            String content = orEmpty(response.responseData(), "responseData", nulls);
            putNulls(nulls, metadata);
            stored.add(new Message(null, Role.TOOL_RESULT, content, List.of(), null, metadata));
            metadata = new HashMap<>();
        }
    }

    private static String orEmpty(String value, String field, List<String> nulls) {
        if (value == null) {
            nulls.add(field);
            return "";
        }
        return value;
    }

    private static void putNulls(List<String> nulls, Map<String, String> metadata) {
        String value = StoredKeys.nullsValue(nulls);
        if (value != null) {
            metadata.put(StoredKeys.NULLS, value);
        }
    }
}
