package dev.agentpersistence;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a forked agent came from ({@link AgentPersistence#fork}): recorded in the metadata of the fork's first
 * checkpoint, so it travels with the data on every provider.
 *
 * @param agentId the forked agent
 * @param parentAgentId the agent it was forked from
 * @param parentCheckpointId the checkpoint of the parent it starts from
 * @param parentVersion that checkpoint's version
 * @param forkedAt when the fork was made
 */
public record ForkOrigin(
        String agentId, String parentAgentId, String parentCheckpointId, long parentVersion, Instant forkedAt) {
    /** Metadata key of a fork's first checkpoint: the parent agent. */
    public static final String PARENT_AGENT_KEY = "fork.parentAgentId";
    /** Metadata key of a fork's first checkpoint: the parent checkpoint. */
    public static final String PARENT_CHECKPOINT_KEY = "fork.parentCheckpointId";
    /** Metadata key of a fork's first checkpoint: the parent checkpoint's version. */
    public static final String PARENT_VERSION_KEY = "fork.parentVersion";

    public ForkOrigin {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(parentAgentId, "parentAgentId");
        Objects.requireNonNull(parentCheckpointId, "parentCheckpointId");
        Objects.requireNonNull(forkedAt, "forkedAt");
    }

    /** The origin a fork's first checkpoint records; empty for a checkpoint that is not one. */
    public static Optional<ForkOrigin> of(AgentCheckpoint checkpoint) {
        Map<String, String> metadata =
                Objects.requireNonNull(checkpoint, "checkpoint").metadata();
        String parent = metadata.get(PARENT_AGENT_KEY);
        String parentCheckpoint = metadata.get(PARENT_CHECKPOINT_KEY);
        String version = metadata.get(PARENT_VERSION_KEY);
        if (parent == null || parentCheckpoint == null || version == null) {
            return Optional.empty();
        }
        return Optional.of(new ForkOrigin(
                checkpoint.agentId(), parent, parentCheckpoint, Long.parseLong(version), checkpoint.createdAt()));
    }
}
