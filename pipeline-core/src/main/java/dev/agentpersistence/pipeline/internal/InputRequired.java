package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.pipeline.InputRequest;

/**
 * Thrown by {@link dev.agentpersistence.pipeline.NodeContext#awaitInput} to end the attempt while the run waits for an
 * answer. The runner also looks at the context, so an action that catches it still ends waiting.
 */
public final class InputRequired extends RuntimeException {
    private final transient InputRequest request;

    InputRequired(InputRequest request) {
        super("node '" + request.node() + "' waits for input: " + request.question(), null, false, false);
        this.request = request;
    }

    public InputRequest request() {
        return request;
    }
}
