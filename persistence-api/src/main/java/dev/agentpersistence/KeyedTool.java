package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.UUID;

/**
 * A {@link Tool} that receives an idempotency key with every call, so it can recognise a call it has already seen: a
 * write-ahead journal (the pipeline's) gives each tool call a key, and the inverse tool undoing that call gets the same
 * key. An inverse written as a {@code KeyedTool} can therefore undo exactly the effects of one call (for example by
 * deleting the rows tagged with the key), and undoing a call twice, or a call that never ran, does nothing.
 *
 * <p>{@link #idempotent()} declares that calling the tool twice with the same key has the effect of one call; a
 * pipeline then gives a retried call the same key as the call it repeats.
 */
public interface KeyedTool extends Tool {

    /**
     * Runs the tool.
     *
     * @param arguments the call's arguments
     * @param idempotencyKey the call's key: unique per call, or per logical call for an idempotent tool
     */
    JsonNode execute(JsonNode arguments, String idempotencyKey) throws Exception;

    /** Runs the tool with a fresh random key (a call made without a journal). */
    @Override
    default JsonNode execute(JsonNode arguments) throws Exception {
        return execute(arguments, UUID.randomUUID().toString());
    }

    /** Whether two calls with the same key have the effect of one; default {@code false}. */
    default boolean idempotent() {
        return false;
    }

    /** A keyed tool from a name and a function; not declared idempotent. */
    static KeyedTool of(String name, KeyedFunction function) {
        return of(name, false, function);
    }

    /** A keyed tool from a name, whether it is idempotent, and a function. */
    static KeyedTool of(String name, boolean idempotent, KeyedFunction function) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        return new KeyedTool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public JsonNode execute(JsonNode arguments, String idempotencyKey) throws Exception {
                return function.apply(arguments, idempotencyKey);
            }

            @Override
            public boolean idempotent() {
                return idempotent;
            }

            @Override
            public String toString() {
                return "KeyedTool[" + name + (idempotent ? ", idempotent" : "") + "]";
            }
        };
    }

    /** The body of a keyed tool, for lambdas. */
    @FunctionalInterface
    interface KeyedFunction {
        JsonNode apply(JsonNode arguments, String idempotencyKey) throws Exception;
    }
}
