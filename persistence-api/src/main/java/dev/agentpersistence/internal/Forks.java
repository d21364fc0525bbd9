package dev.agentpersistence.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ForkOrigin;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.UUID;

/** How a fork's first checkpoint is made and found: a copy of the parent's, with the origin in its metadata. */
public final class Forks {
    private Forks() {}

    /**
     * The checkpoint id of {@code agentId}'s fork checkpoint: derived from the agent id, so the origin of an agent is
     * found by one lookup by id, and two forks into one agent clash.
     */
    public static String originCheckpointId(String agentId) {
        return "fork-" + UUID.nameUUIDFromBytes(("fork:" + agentId).getBytes(StandardCharsets.UTF_8));
    }

    /** Version 0 of {@code newAgentId}: {@code source}'s content, with the origin recorded. */
    public static AgentCheckpoint firstCheckpoint(AgentCheckpoint source, String newAgentId, Instant now) {
        var metadata = new HashMap<>(source.metadata());
        metadata.put(ForkOrigin.PARENT_AGENT_KEY, source.agentId());
        metadata.put(ForkOrigin.PARENT_CHECKPOINT_KEY, source.checkpointId());
        metadata.put(ForkOrigin.PARENT_VERSION_KEY, Long.toString(source.version()));
        return source.toBuilder()
                .checkpointId(originCheckpointId(newAgentId))
                .agentId(newAgentId)
                .version(0)
                .createdAt(now)
                .parentCheckpointId(null)
                .metadata(metadata)
                .build();
    }
}
