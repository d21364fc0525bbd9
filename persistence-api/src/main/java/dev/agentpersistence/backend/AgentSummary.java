package dev.agentpersistence.backend;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One agent of a store at a glance, from {@link StoredForm#agentSummaries()}: its checkpoint count, the bytes its
 * stored documents take, and its latest checkpoint's identity, node and time, which equal what
 * {@link dev.agentpersistence.PersistenceStorageProvider#getLatestCheckpoint(String)} returns.
 *
 * @param agentId the agent
 * @param checkpoints how many checkpoints the agent has as stored (tombstones included)
 * @param bytes the sum of the sizes of the agent's stored documents
 * @param latest the agent's latest readable checkpoint; empty when none of its documents can be read and corrupt ones
 *     are skipped
 */
public record AgentSummary(String agentId, long checkpoints, long bytes, Optional<Latest> latest) {
    public AgentSummary {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(latest, "latest");
    }

    /**
     * The latest checkpoint of an agent, without its state or history.
     *
     * @param version its version
     * @param checkpointId its id
     * @param nodeId its node, or {@code null}
     * @param createdAt when it was created
     * @param tombstone whether it marks a completed run
     */
    public record Latest(long version, String checkpointId, String nodeId, Instant createdAt, boolean tombstone) {
        public Latest {
            Objects.requireNonNull(checkpointId, "checkpointId");
            Objects.requireNonNull(createdAt, "createdAt");
        }
    }
}
