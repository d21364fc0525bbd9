package dev.agentpersistence.tck;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A JSON library the read matrix writes with besides Jackson 2 (see
 * {@link StorageProviderCompatibilityKit#jsonWriters()}): {@code values} builds each JSON value through the library's
 * own trees and returns the value in the stored (Jackson 2) form, as an application using that library hands it to the
 * data model.
 *
 * @param name the library, as test names show it ({@code Jackson 3})
 * @param values each value built again through the library
 */
public record JsonWriter(String name, UnaryOperator<JsonNode> values) {
    /** Checks the components. */
    public JsonWriter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(values, "values");
    }

    /** {@code checkpoint} with its input, state values and tool call arguments built again through this library. */
    public AgentCheckpoint rebuild(AgentCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        var messages = new ArrayList<Message>(checkpoint.messageHistory().size());
        for (Message message : checkpoint.messageHistory()) {
            ToolCall call = message.toolCall();
            messages.add(
                    call == null
                            ? message
                            : new Message(
                                    message.id(),
                                    message.role(),
                                    message.content(),
                                    message.parts(),
                                    new ToolCall(call.id(), call.toolName(), value(call.arguments())),
                                    message.metadata()));
        }
        var state = new LinkedHashMap<String, JsonNode>();
        checkpoint.state().forEach((key, value) -> state.put(key, value(value)));
        return checkpoint.toBuilder()
                .lastInput(value(checkpoint.lastInput()))
                .messageHistory(messages)
                .state(state)
                .build();
    }

    private JsonNode value(JsonNode value) {
        if (value == null) {
            return null;
        }
        return Objects.requireNonNull(values.apply(value), name + " rebuilt a value as null");
    }
}
