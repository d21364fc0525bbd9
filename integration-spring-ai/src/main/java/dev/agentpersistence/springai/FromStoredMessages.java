package dev.agentpersistence.springai;

import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.Message.Role;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;

/**
 * Stored {@link Message}s as Spring AI messages: the inverse of {@link ToStoredMessages}. An {@code ASSISTANT} message
 * takes the {@code TOOL_CALL} messages after it that its {@link StoredKeys#TOOL_CALLS} count names; a
 * {@code TOOL_RESULT} takes the following results its {@link StoredKeys#RESPONSES} count names. Messages stored without
 * these counts (by another integration) are grouped by runs: consecutive tool calls become one assistant message,
 * consecutive tool results one tool response message.
 */
final class FromStoredMessages {
    private FromStoredMessages() {}

    /**
     * The Spring AI messages {@code stored} holds.
     *
     * @throws ChatMemoryMappingException naming the stored message that cannot be read
     */
    static List<org.springframework.ai.chat.messages.Message> of(String conversationId, List<Message> stored) {
        List<org.springframework.ai.chat.messages.Message> messages = new ArrayList<>();
        int i = 0;
        while (i < stored.size()) {
            Message first = stored.get(i);
            try {
                int count = switch (first.role()) {
                    case SYSTEM ->
                        add(
                                messages,
                                SystemMessage.builder()
                                        .text(first.content())
                                        .metadata(metadata(first))
                                        .build());
                    case USER ->
                        add(
                                messages,
                                UserMessage.builder()
                                        .text(first.content())
                                        .media(media(first))
                                        .metadata(metadata(first))
                                        .build());
                    case ASSISTANT, TOOL_CALL -> assistant(stored, i, messages);
                    case TOOL_RESULT -> toolResponses(stored, i, messages);
                };
                i += count;
            } catch (IllegalArgumentException e) {
                throw new ChatMemoryMappingException(conversationId, i, e.getMessage(), e);
            }
        }
        return messages;
    }

    private static int add(
            List<org.springframework.ai.chat.messages.Message> messages,
            org.springframework.ai.chat.messages.Message message) {
        messages.add(message);
        return 1;
    }

    /** Reads an assistant message (or a run of bare tool calls) at {@code start}; returns how many it took. */
    private static int assistant(
            List<Message> stored, int start, List<org.springframework.ai.chat.messages.Message> messages) {
        Message first = stored.get(start);
        boolean bare = first.role() == Role.TOOL_CALL;
        int wanted = bare ? Integer.MAX_VALUE : count(first, StoredKeys.TOOL_CALLS, 0);
        int next = bare ? start : start + 1;
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        while (calls.size() < wanted && next < stored.size() && stored.get(next).role() == Role.TOOL_CALL) {
            calls.add(toolCall(stored.get(next)));
            next++;
        }
        Set<String> nulls = StoredKeys.nulls(first.metadata());
        String text = bare ? "" : nulls.contains("text") ? null : first.content();
        messages.add(AssistantMessage.builder()
                .content(text)
                .properties(bare ? Map.of() : metadata(first))
                .toolCalls(calls)
                .media(bare ? List.of() : media(first))
                .build());
        return next - start;
    }

    private static AssistantMessage.ToolCall toolCall(Message stored) {
        Map<String, String> metadata = stored.metadata();
        Set<String> nulls = StoredKeys.nulls(metadata);
        String arguments = metadata.containsKey(StoredKeys.ARGUMENTS)
                ? metadata.get(StoredKeys.ARGUMENTS)
                : stored.toolCall().arguments().toString();
        String type = metadata.containsKey(StoredKeys.TOOL_TYPE) || nulls.contains("type")
                ? metadata.get(StoredKeys.TOOL_TYPE)
                : "function";
        return new AssistantMessage.ToolCall(
                nulls.contains("id") ? null : stored.toolCall().id(),
                type,
                nulls.contains("name") ? null : stored.toolCall().toolName(),
                nulls.contains("arguments") ? null : arguments);
    }

    /** Reads a tool response message at {@code start}; returns how many stored messages it took. */
    private static int toolResponses(
            List<Message> stored, int start, List<org.springframework.ai.chat.messages.Message> messages) {
        Message first = stored.get(start);
        int wanted = count(first, StoredKeys.RESPONSES, Integer.MAX_VALUE);
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        int next = start;
        if (wanted == 0) {
            next++;
        }
        while (responses.size() < wanted
                && next < stored.size()
                && stored.get(next).role() == Role.TOOL_RESULT
                && (next == start || !stored.get(next).metadata().containsKey(StoredKeys.RESPONSES))) {
            responses.add(toolResponse(stored.get(next)));
            next++;
        }
        messages.add(ToolResponseMessage.builder()
                .responses(responses)
                .metadata(metadata(first))
                .build());
        return next - start;
    }

    private static ToolResponseMessage.ToolResponse toolResponse(Message stored) {
        Map<String, String> metadata = stored.metadata();
        Set<String> nulls = StoredKeys.nulls(metadata);
        return new ToolResponseMessage.ToolResponse(
                nulls.contains("id") ? null : metadata.getOrDefault(Message.TOOL_CALL_ID, ""),
                nulls.contains("name") ? null : metadata.getOrDefault(Message.TOOL_NAME, ""),
                nulls.contains("responseData") ? null : stored.content());
    }

    private static Map<String, Object> metadata(Message stored) {
        String json = stored.metadata().get(StoredKeys.METADATA);
        return json == null ? new HashMap<>() : MetadataValues.read(json);
    }

    private static List<Media> media(Message stored) {
        List<Media> media = new ArrayList<>();
        for (ContentPart part : stored.parts()) {
            if (part instanceof ContentPart.Media m) {
                media.add(MediaParts.fromPart(m, media.size(), stored.metadata()));
            }
        }
        return media;
    }

    private static int count(Message stored, String key, int absent) {
        String value = stored.metadata().get(key);
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("metadata '" + key + "' is not a count: '" + value + "'", e);
        }
    }
}
