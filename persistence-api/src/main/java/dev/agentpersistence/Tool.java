package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool an agent can call, as far as rollback needs it: a name and a way to run it. */
public interface Tool {

    /** The name tool calls use ({@link ToolCall#toolName()}). */
    String name();

    /** Runs the tool with the given arguments and returns its result. */
    JsonNode execute(JsonNode arguments) throws Exception;

    /** A tool from a name and a function. */
    static Tool of(String name, ToolFunction function) {
        java.util.Objects.requireNonNull(name, "name");
        java.util.Objects.requireNonNull(function, "function");
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public JsonNode execute(JsonNode arguments) throws Exception {
                return function.apply(arguments);
            }

            @Override
            public String toString() {
                return "Tool[" + name + "]";
            }
        };
    }

    /** The body of a tool, for lambdas. */
    @FunctionalInterface
    interface ToolFunction {
        JsonNode apply(JsonNode arguments) throws Exception;
    }
}
