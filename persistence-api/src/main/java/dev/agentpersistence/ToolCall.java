package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * A tool invocation requested by the model.
 *
 * @param id        the call id the model assigned; pairs the call with its {@link Message.Role#TOOL_RESULT}
 * @param toolName  the name of the tool, as registered in a {@link RollbackToolRegistry}
 * @param arguments the call's arguments; {@code null} is stored as JSON {@code null}. Treat as read-only.
 */
public record ToolCall(String id, String toolName, JsonNode arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(toolName, "toolName");
        arguments = arguments == null ? NullNode.getInstance() : arguments;
    }
}
