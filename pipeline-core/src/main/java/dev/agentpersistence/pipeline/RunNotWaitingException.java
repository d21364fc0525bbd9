package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;

/**
 * {@link Pipeline#resume} was called for a run that is not waiting for input (unknown, running, failed or completed).
 */
public final class RunNotWaitingException extends PersistenceException {
    public RunNotWaitingException(String pipeline, String runId, String why) {
        super("Run '" + runId + "' of pipeline '" + pipeline + "' is not waiting for input: " + why);
    }
}
