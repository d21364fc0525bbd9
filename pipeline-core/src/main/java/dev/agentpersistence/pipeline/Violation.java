package dev.agentpersistence.pipeline;

import java.util.Objects;

/**
 * One broken rule found by a {@link Condition}.
 *
 * @param condition the name of the condition that found it
 * @param message what is wrong, e.g. {@code "3-5 concept blocks expected, found 7"}
 */
public record Violation(String condition, String message) {
    public Violation {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(message, "message");
    }

    /** {@code "[condition] message"}. */
    @Override
    public String toString() {
        return "[" + condition + "] " + message;
    }
}
