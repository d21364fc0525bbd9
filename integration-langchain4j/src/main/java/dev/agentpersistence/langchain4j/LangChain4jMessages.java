package dev.agentpersistence.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.Message.Role;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.langchain4j.internal.AttributeValues;
import dev.agentpersistence.langchain4j.internal.Json;
import dev.agentpersistence.langchain4j.internal.MediaParts;
import dev.agentpersistence.langchain4j.internal.MessageKeys;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * LangChain4j chat messages as agent-persistence {@link Message}s and back; every message reads back
 * equal to the one written.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>LangChain4j</th><th>stored as</th></tr>
 *   <tr><td>{@code SystemMessage}</td><td>one {@code SYSTEM} message</td></tr>
 *   <tr><td>{@code UserMessage}</td><td>one {@code USER} message: its text as content; contents other
 *       than one text as {@link ContentPart}s (image, audio, video by URL or bytes; PDF as {@code FILE})</td></tr>
 *   <tr><td>{@code AiMessage} without tool requests</td><td>one {@code ASSISTANT} message</td></tr>
 *   <tr><td>{@code AiMessage} with n tool requests</td><td>n {@code TOOL_CALL} messages, each with its
 *       {@link ToolCall} (arguments as JSON), so {@link dev.agentpersistence.RollbackToolRegistry} can undo
 *       them; the first carries the AI message's text</td></tr>
 *   <tr><td>{@code ToolExecutionResultMessage}</td><td>one {@code TOOL_RESULT} message with
 *       {@link Message#TOOL_CALL_ID} and {@link Message#TOOL_NAME}</td></tr>
 *   <tr><td>{@code CustomMessage}</td><td>one {@code USER} message with empty content, marked custom</td></tr>
 * </table>
 * What the portable message has no field for (a user's name, thinking, attributes, an image's detail
 * level, arguments that are not canonical JSON, absent ids, {@code isError}) is kept in metadata entries
 * prefixed {@code langchain4j.}, written only when present. Attribute values may be text, booleans,
 * numbers, lists, maps with text keys, LangChain4j {@code Image}s and {@code null}; others are refused
 * with {@link UnsupportedMessageException}.
 *
 * <p>The conversion is deterministic: the same message always gives equal messages (apart from ids),
 * which the conversation store relies on to find what is new in a list it is handed.
 * Consecutive {@code TOOL_CALL} messages written by other code become one {@code AiMessage}.
 */
public final class LangChain4jMessages {
    private LangChain4jMessages() {
    }

    /**
     * The stored form of {@code messages}, in order.
     *
     * @throws UnsupportedMessageException for a message that would not read back equal
     */
    public static List<Message> toMessages(List<? extends ChatMessage> messages) {
        Objects.requireNonNull(messages, "messages");
        var stored = new ArrayList<Message>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            stored.addAll(toMessages(Objects.requireNonNull(messages.get(i), "messages[" + i + "]"), "message " + i));
        }
        return stored;
    }

    /** The LangChain4j messages of {@code messages} (as {@link #toMessages} wrote them, or written by other code). */
    public static List<ChatMessage> fromMessages(List<Message> messages) {
        Objects.requireNonNull(messages, "messages");
        var chat = new ArrayList<ChatMessage>(messages.size());
        int i = 0;
        while (i < messages.size()) {
            var message = messages.get(i);
            if (message.role() == Role.TOOL_CALL && message.toolCall() != null) {
                int end = endOfToolCalls(messages, i);
                chat.add(aiMessage(messages.subList(i, end)));
                i = end;
            } else {
                chat.add(fromMessage(message));
                i++;
            }
        }
        return chat;
    }

    private static List<Message> toMessages(ChatMessage message, String where) {
        if (message instanceof SystemMessage system) {
            return List.of(new Message(Role.SYSTEM, system.text(), null, Map.of()));
        }
        if (message instanceof UserMessage user) {
            var metadata = new TreeMap<String, String>();
            putIfPresent(metadata, MessageKeys.NAME, user.name());
            putAttributes(metadata, user.attributes(), where);
            return List.of(withContents(Role.USER, user.contents(), metadata, where));
        }
        if (message instanceof AiMessage ai) {
            return ai.hasToolExecutionRequests() ? toolCalls(ai, where) : List.of(assistant(ai, where));
        }
        if (message instanceof ToolExecutionResultMessage result) {
            var metadata = new TreeMap<String, String>();
            putIfPresent(metadata, Message.TOOL_CALL_ID, result.id());
            putIfPresent(metadata, Message.TOOL_NAME, result.toolName());
            putIfPresent(metadata, MessageKeys.IS_ERROR, result.isError() == null ? null : result.isError().toString());
            putAttributes(metadata, result.attributes(), where);
            return List.of(withContents(Role.TOOL_RESULT, result.contents(), metadata, where));
        }
        if (message instanceof CustomMessage custom) {
            var metadata = new TreeMap<String, String>();
            metadata.put(MessageKeys.TYPE, MessageKeys.CUSTOM);
            metadata.put(MessageKeys.ATTRIBUTES, AttributeValues.encode(custom.attributes(), where));
            return List.of(new Message(Role.USER, "", null, metadata));
        }
        throw new UnsupportedMessageException(where + ": message type " + message.getClass().getName()
                + " is not supported");
    }

    private static Message withContents(Role role, List<Content> contents, Map<String, String> metadata, String where) {
        if (contents.size() == 1 && contents.get(0) instanceof TextContent text) {
            return new Message(role, text.text(), null, metadata);
        }
        var extras = JsonNodeFactory.instance.objectNode();
        List<ContentPart> parts = MediaParts.toParts(contents, extras, where);
        if (!extras.isEmpty()) {
            metadata.put(MessageKeys.PARTS, Json.write(extras));
        }
        var text = new StringJoiner("\n");
        parts.stream().filter(ContentPart.Text.class::isInstance).forEach(p -> text.add(((ContentPart.Text) p).text()));
        return new Message(null, role, text.toString(), parts, null, metadata);
    }

    private static Message assistant(AiMessage ai, String where) {
        var metadata = aiMetadata(ai, where);
        return new Message(Role.ASSISTANT, ai.text(), null, metadata);
    }

    private static List<Message> toolCalls(AiMessage ai, String where) {
        var requests = ai.toolExecutionRequests();
        var calls = new ArrayList<Message>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            var request = requests.get(i);
            var metadata = i == 0 ? aiMetadata(ai, where) : new TreeMap<String, String>();
            if (i == 0) {
                metadata.put(MessageKeys.TOOL_CALLS, Integer.toString(requests.size()));
            }
            markAbsent(metadata, MessageKeys.ID_ABSENT, request.id());
            markAbsent(metadata, MessageKeys.NAME_ABSENT, request.name());
            markAbsent(metadata, MessageKeys.ARGUMENTS_ABSENT, request.arguments());
            JsonNode arguments = null;
            if (request.arguments() != null) {
                var parsed = Json.tryRead(request.arguments());
                arguments = parsed.orElseGet(() -> TextNode.valueOf(request.arguments()));
                if (parsed.isEmpty() || !Json.write(parsed.get()).equals(request.arguments())) {
                    metadata.put(MessageKeys.ARGUMENTS, request.arguments());
                }
            }
            var call = new ToolCall(Objects.requireNonNullElse(request.id(), ""),
                    Objects.requireNonNullElse(request.name(), ""), arguments);
            calls.add(new Message(Role.TOOL_CALL, i == 0 ? ai.text() : "", call, metadata));
        }
        return calls;
    }

    private static TreeMap<String, String> aiMetadata(AiMessage ai, String where) {
        var metadata = new TreeMap<String, String>();
        markAbsent(metadata, MessageKeys.TEXT_ABSENT, ai.text());
        putIfPresent(metadata, MessageKeys.THINKING, ai.thinking());
        putAttributes(metadata, ai.attributes(), where);
        return metadata;
    }

    private static ChatMessage fromMessage(Message message) {
        var metadata = message.metadata();
        if (MessageKeys.CUSTOM.equals(metadata.get(MessageKeys.TYPE))) {
            return CustomMessage.from(attributes(metadata));
        }
        return switch (message.role()) {
            case SYSTEM -> SystemMessage.from(message.content());
            case USER -> UserMessage.builder().name(metadata.get(MessageKeys.NAME)).contents(contents(message))
                    .attributes(attributes(metadata)).build();
            case ASSISTANT, TOOL_CALL -> aiMessage(List.of(message));
            case TOOL_RESULT -> ToolExecutionResultMessage.builder()
                    .id(metadata.get(Message.TOOL_CALL_ID))
                    .toolName(metadata.get(Message.TOOL_NAME))
                    .contents(contents(message))
                    .isError(metadata.containsKey(MessageKeys.IS_ERROR) ? Boolean.valueOf(metadata.get(MessageKeys.IS_ERROR)) : null)
                    .attributes(attributes(metadata))
                    .build();
        };
    }

    /** An AI message from an {@code ASSISTANT} message or from a group of {@code TOOL_CALL} messages. */
    private static AiMessage aiMessage(List<Message> group) {
        var first = group.get(0);
        var metadata = first.metadata();
        boolean describesAi = first.role() == Role.ASSISTANT || metadata.containsKey(MessageKeys.TOOL_CALLS);
        var requests = new ArrayList<ToolExecutionRequest>();
        for (var call : group) {
            if (call.toolCall() != null) {
                requests.add(request(call));
            }
        }
        return AiMessage.builder()
                .text(!describesAi || metadata.containsKey(MessageKeys.TEXT_ABSENT) ? null : first.content())
                .thinking(metadata.get(MessageKeys.THINKING))
                .toolExecutionRequests(requests)
                .attributes(attributes(metadata))
                .build();
    }

    private static ToolExecutionRequest request(Message call) {
        var metadata = call.metadata();
        var toolCall = call.toolCall();
        String arguments;
        if (metadata.containsKey(MessageKeys.ARGUMENTS_ABSENT)) {
            arguments = null;
        } else if (metadata.containsKey(MessageKeys.ARGUMENTS)) {
            arguments = metadata.get(MessageKeys.ARGUMENTS);
        } else {
            arguments = Json.write(toolCall.arguments());
        }
        return ToolExecutionRequest.builder()
                .id(metadata.containsKey(MessageKeys.ID_ABSENT) ? null : toolCall.id())
                .name(metadata.containsKey(MessageKeys.NAME_ABSENT) ? null : toolCall.toolName())
                .arguments(arguments)
                .build();
    }

    /**
     * Where the group of tool calls starting at {@code start} ends: after the count its first message
     * gives, or, for calls written by other code, after the run of unmarked tool calls.
     */
    private static int endOfToolCalls(List<Message> messages, int start) {
        String count = messages.get(start).metadata().get(MessageKeys.TOOL_CALLS);
        int limit = count == null ? Integer.MAX_VALUE : start + Integer.parseInt(count);
        int end = start + 1;
        while (end < messages.size() && end < limit && messages.get(end).role() == Role.TOOL_CALL
                && messages.get(end).toolCall() != null
                && !messages.get(end).metadata().containsKey(MessageKeys.TOOL_CALLS)) {
            end++;
        }
        return end;
    }

    private static List<Content> contents(Message message) {
        if (message.parts().isEmpty()) {
            return List.of(TextContent.from(message.content()));
        }
        String extras = message.metadata().get(MessageKeys.PARTS);
        return MediaParts.toContents(message.parts(), extras == null ? null : Json.read(extras));
    }

    private static Map<String, Object> attributes(Map<String, String> metadata) {
        String json = metadata.get(MessageKeys.ATTRIBUTES);
        return json == null ? Map.of() : AttributeValues.decode(json);
    }

    private static void putAttributes(Map<String, String> metadata, Map<String, Object> attributes, String where) {
        if (attributes != null && !attributes.isEmpty()) {
            metadata.put(MessageKeys.ATTRIBUTES, AttributeValues.encode(attributes, where));
        }
    }

    private static void putIfPresent(Map<String, String> metadata, String key, String value) {
        if (value != null) {
            metadata.put(key, value);
        }
    }

    private static void markAbsent(Map<String, String> metadata, String key, Object value) {
        if (value == null) {
            metadata.put(key, "true");
        }
    }
}
