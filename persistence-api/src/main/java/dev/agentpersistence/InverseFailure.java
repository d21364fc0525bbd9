package dev.agentpersistence;

import java.util.Objects;

/**
 * An inverse tool call that threw during a rollback. The rollback went on with the other calls.
 *
 * @param original the tool call whose undo failed
 * @param inverseToolName the name of the inverse tool that threw
 * @param error what the inverse threw
 */
public record InverseFailure(ToolCall original, String inverseToolName, Exception error) {
    public InverseFailure {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(inverseToolName, "inverseToolName");
        Objects.requireNonNull(error, "error");
    }
}
