package dev.agentpersistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Objects;

/**
 * A tool invocation requested by the model.
 *
 * @param id the call id the model assigned; pairs the call with its {@link Message.Role#TOOL_RESULT}
 * @param toolName the name of the tool, as registered in a {@link RollbackToolRegistry}
 * @param arguments the call's arguments; {@code null} is stored as JSON {@code null}. Treat as read-only.
 */
public record ToolCall(String id, String toolName, JsonNode arguments) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(toolName, "toolName");
        arguments = arguments == null ? NullNode.getInstance() : arguments;
    }

    /**
     * Arguments a framework gives as text: the JSON value the text holds, or the text itself as a JSON string when it
     * is not one JSON value (empty text included), so rollback tools always get JSON.
     */
    public static JsonNode argumentsOf(String text) {
        Objects.requireNonNull(text, "text");
        try {
            JsonNode node = JSON.readTree(text);
            return node == null || node.isMissingNode() ? TextNode.valueOf(text) : node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
