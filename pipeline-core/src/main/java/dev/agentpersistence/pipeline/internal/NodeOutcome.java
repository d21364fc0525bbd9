package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.Message;
import dev.agentpersistence.pipeline.InputRequest;
import dev.agentpersistence.pipeline.PipelineFailure;
import java.util.List;

/**
 * How a node ended: passed (state and history to carry on with), failed (the state to report), or waiting for input
 * (the state to keep while it waits).
 *
 * @param failure {@code null} when the node passed or waits
 * @param waiting the question the node waits on, or {@code null}
 */
public record NodeOutcome<S>(S state, List<Message> history, PipelineFailure failure, InputRequest waiting) {
    public NodeOutcome {
        history = List.copyOf(history);
    }

    public NodeOutcome(S state, List<Message> history, PipelineFailure failure) {
        this(state, history, failure, null);
    }

    public boolean passed() {
        return failure == null && waiting == null;
    }
}
