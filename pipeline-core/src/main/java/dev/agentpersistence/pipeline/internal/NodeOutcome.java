package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.Message;
import dev.agentpersistence.pipeline.PipelineFailure;
import java.util.List;

/**
 * How a node ended: passed (state and history to carry on with) or failed (the state to report).
 *
 * @param failure {@code null} when the node passed and its checkpoint was saved
 */
public record NodeOutcome<S>(S state, List<Message> history, PipelineFailure failure) {
    public NodeOutcome {
        history = List.copyOf(history);
    }

    public boolean passed() {
        return failure == null;
    }
}
