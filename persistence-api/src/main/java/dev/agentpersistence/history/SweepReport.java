package dev.agentpersistence.history;

import java.time.Instant;
import java.util.List;

/**
 * What one {@link RetentionSweeper#sweep()} did.
 *
 * @param startedAt the sweep's "now" from its clock
 * @param agentsVisited agents whose checkpoints and segments were looked at
 * @param checkpointsDeleted checkpoints deleted by the policy
 * @param expiredDeleted checkpoints deleted by the backend's own expiry
 *     ({@link dev.agentpersistence.PersistenceStorageProvider#deleteExpired()})
 * @param segmentsDeleted history segments no kept checkpoint needed, and blobs (parts stored by reference) none needed
 * @param failedAgents agents the sweep could not finish (logged at WARN; retried by the next sweep)
 */
public record SweepReport(
        Instant startedAt,
        int agentsVisited,
        int checkpointsDeleted,
        int expiredDeleted,
        int segmentsDeleted,
        List<String> failedAgents) {
    public SweepReport {
        failedAgents = List.copyOf(failedAgents);
    }
}
