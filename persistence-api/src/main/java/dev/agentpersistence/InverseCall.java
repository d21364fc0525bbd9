package dev.agentpersistence;

import java.util.Objects;

/**
 * An inverse tool call that completed during a rollback.
 *
 * @param original the tool call that was undone
 * @param inverseToolName the name of the inverse tool that was called with the original's arguments
 */
public record InverseCall(ToolCall original, String inverseToolName) {
    public InverseCall {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(inverseToolName, "inverseToolName");
    }
}
