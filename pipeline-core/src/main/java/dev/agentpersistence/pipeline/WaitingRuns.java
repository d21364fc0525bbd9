package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Pipeline#scanWaitingRuns()} found: the runs waiting for input, and the runs it skipped because their
 * newest checkpoint, or the question in it, cannot be read.
 *
 * @param waiting the waiting runs with their questions
 * @param unreadable the runs skipped, with the reason
 */
public record WaitingRuns(List<InputRequest> waiting, List<Unreadable> unreadable) {
    /** Copies the lists. */
    public WaitingRuns {
        waiting = List.copyOf(Objects.requireNonNull(waiting, "waiting"));
        unreadable = List.copyOf(Objects.requireNonNull(unreadable, "unreadable"));
    }

    /**
     * A run whose wait could not be read.
     *
     * @param runId the run's id
     * @param agentId the agent id it is stored under
     * @param problem what could not be read, and where
     */
    public record Unreadable(String runId, String agentId, PersistenceException problem) {
        /** Checks the fields. */
        public Unreadable {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(agentId, "agentId");
            Objects.requireNonNull(problem, "problem");
        }
    }
}
