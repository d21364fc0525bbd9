package dev.agentpersistence.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.Message.Role;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.langchain4j.internal.LangChain4jAttributes;
import dev.agentpersistence.langchain4j.internal.LangChain4jContents;
import dev.agentpersistence.langchain4j.internal.LangChain4jJson;
import dev.agentpersistence.langchain4j.internal.LangChain4jKeys;
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
import java.util.TreeMap;

/**
 * LangChain4j chat messages as agent-persistence {@link Message}s and back; every message reads back equal to the one
 * written.
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
 *
 * What the portable message has no field for (a user's name, thinking, attributes, an image's detail level, arguments
 * that are not canonical JSON, absent ids, {@code isError}) is kept in metadata entries prefixed {@code langchain4j.},
 * written only when present. Attribute values may be text, booleans, numbers, lists, maps with text keys, LangChain4j
 * {@code Image}s and {@code null}; others are refused with {@link UnsupportedMessageException}.
 *
 * <p>The conversion is deterministic: the same message always gives equal messages (apart from ids), which the
 * conversation store relies on to find what is new in a list it is handed. Consecutive {@code TOOL_CALL} messages
 * written by other code become one {@code AiMessage}.
 */
public final class LangChain4jMessages {
    private LangChain4jMessages() {}

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
            putIfPresent(metadata, LangChain4jKeys.NAME, user.name());
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
            putIfPresent(
                    metadata,
                    LangChain4jKeys.IS_ERROR,
                    result.isError() == null ? null : result.isError().toString());
            putAttributes(metadata, result.attributes(), where);
            return List.of(withContents(Role.TOOL_RESULT, result.contents(), metadata, where));
        }
        if (message instanceof CustomMessage custom) {
            var metadata = new TreeMap<String, String>();
            metadata.put(LangChain4jKeys.TYPE, LangChain4jKeys.CUSTOM);
            metadata.put(LangChain4jKeys.ATTRIBUTES, LangChain4jAttributes.encode(custom.attributes(), where));
            return List.of(new Message(Role.USER, "", null, metadata));
        }
        throw new UnsupportedMessageException(
                where + ": message type " + message.getClass().getName() + " is not supported");
    }

    private static Message withContents(Role role, List<Content> contents, Map<String, String> metadata, String where) {
        if (contents.size() == 1 && contents.get(0) instanceof TextContent text) {
            return new Message(role, text.text(), null, metadata);
        }
        var extras = JsonNodeFactory.instance.objectNode();
        List<ContentPart> parts = LangChain4jContents.toParts(contents, extras, where);
        if (!extras.isEmpty()) {
            metadata.put(LangChain4jKeys.PARTS, LangChain4jJson.write(extras));
        }
        return new Message(null, role, Message.textOf(parts), parts, null, metadata);
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
                metadata.put(LangChain4jKeys.TOOL_CALLS, Integer.toString(requests.size()));
            }
            markAbsent(metadata, LangChain4jKeys.ID_ABSENT, request.id());
            markAbsent(metadata, LangChain4jKeys.NAME_ABSENT, request.name());
            markAbsent(metadata, LangChain4jKeys.ARGUMENTS_ABSENT, request.arguments());
            JsonNode arguments = null;
            if (request.arguments() != null) {
                arguments = ToolCall.argumentsOf(request.arguments());
                if (!LangChain4jJson.write(arguments).equals(request.arguments())) {
                    metadata.put(LangChain4jKeys.ARGUMENTS, request.arguments());
                }
            }
            var call = new ToolCall(
                    Objects.requireNonNullElse(request.id(), ""),
                    Objects.requireNonNullElse(request.name(), ""),
                    arguments);
            calls.add(new Message(Role.TOOL_CALL, i == 0 ? ai.text() : "", call, metadata));
        }
        return calls;
    }

    private static TreeMap<String, String> aiMetadata(AiMessage ai, String where) {
        var metadata = new TreeMap<String, String>();
        markAbsent(metadata, LangChain4jKeys.TEXT_ABSENT, ai.text());
        putIfPresent(metadata, LangChain4jKeys.THINKING, ai.thinking());
        putAttributes(metadata, ai.attributes(), where);
        return metadata;
    }

    private static ChatMessage fromMessage(Message message) {
        var metadata = message.metadata();
        if (LangChain4jKeys.CUSTOM.equals(metadata.get(LangChain4jKeys.TYPE))) {
            return CustomMessage.from(attributes(metadata));
        }
        return switch (message.role()) {
            case SYSTEM -> SystemMessage.from(message.content());
            case USER ->
                UserMessage.builder()
                        .name(metadata.get(LangChain4jKeys.NAME))
                        .contents(contents(message))
                        .attributes(attributes(metadata))
                        .build();
            case ASSISTANT, TOOL_CALL -> aiMessage(List.of(message));
            case TOOL_RESULT ->
                ToolExecutionResultMessage.builder()
                        .id(metadata.get(Message.TOOL_CALL_ID))
                        .toolName(metadata.get(Message.TOOL_NAME))
                        .contents(contents(message))
                        .isError(
                                metadata.containsKey(LangChain4jKeys.IS_ERROR)
                                        ? Boolean.valueOf(metadata.get(LangChain4jKeys.IS_ERROR))
                                        : null)
                        .attributes(attributes(metadata))
                        .build();
        };
    }

    /** An AI message from an {@code ASSISTANT} message or from a group of {@code TOOL_CALL} messages. */
    private static AiMessage aiMessage(List<Message> group) {
        var first = group.get(0);
        var metadata = first.metadata();
        boolean describesAi = first.role() == Role.ASSISTANT || metadata.containsKey(LangChain4jKeys.TOOL_CALLS);
        var requests = new ArrayList<ToolExecutionRequest>();
        for (var call : group) {
            if (call.toolCall() != null) {
                requests.add(request(call));
            }
        }
        return AiMessage.builder()
                .text(!describesAi || metadata.containsKey(LangChain4jKeys.TEXT_ABSENT) ? null : first.content())
                .thinking(metadata.get(LangChain4jKeys.THINKING))
                .toolExecutionRequests(requests)
                .attributes(attributes(metadata))
                .build();
    }

    private static ToolExecutionRequest request(Message call) {
        var metadata = call.metadata();
        var toolCall = call.toolCall();
        String arguments;
        if (metadata.containsKey(LangChain4jKeys.ARGUMENTS_ABSENT)) {
            arguments = null;
        } else if (metadata.containsKey(LangChain4jKeys.ARGUMENTS)) {
            arguments = metadata.get(LangChain4jKeys.ARGUMENTS);
        } else {
            arguments = LangChain4jJson.write(toolCall.arguments());
        }
        return ToolExecutionRequest.builder()
                .id(metadata.containsKey(LangChain4jKeys.ID_ABSENT) ? null : toolCall.id())
                .name(metadata.containsKey(LangChain4jKeys.NAME_ABSENT) ? null : toolCall.toolName())
                .arguments(arguments)
                .build();
    }

    /**
     * Where the group of tool calls starting at {@code start} ends: after the count its first message gives, or, for
     * calls written by other code, after the run of unmarked tool calls.
     */
    private static int endOfToolCalls(List<Message> messages, int start) {
        String count = messages.get(start).metadata().get(LangChain4jKeys.TOOL_CALLS);
        int limit = count == null ? Integer.MAX_VALUE : start + Integer.parseInt(count);
        int end = start + 1;
        while (end < messages.size()
                && end < limit
                && messages.get(end).role() == Role.TOOL_CALL
                && messages.get(end).toolCall() != null
                && !messages.get(end).metadata().containsKey(LangChain4jKeys.TOOL_CALLS)) {
            end++;
        }
        return end;
    }

    private static List<Content> contents(Message message) {
        if (message.parts().isEmpty()) {
            return List.of(TextContent.from(message.content()));
        }
        String extras = message.metadata().get(LangChain4jKeys.PARTS);
        return LangChain4jContents.toContents(message.parts(), extras == null ? null : LangChain4jJson.read(extras));
    }

    private static Map<String, Object> attributes(Map<String, String> metadata) {
        String json = metadata.get(LangChain4jKeys.ATTRIBUTES);
        return json == null ? Map.of() : LangChain4jAttributes.decode(json);
    }

    private static void putAttributes(Map<String, String> metadata, Map<String, Object> attributes, String where) {
        if (attributes != null && !attributes.isEmpty()) {
            metadata.put(LangChain4jKeys.ATTRIBUTES, LangChain4jAttributes.encode(attributes, where));
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
