package dev.agentpersistence.spi;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.internal.CheckpointContent;
import java.util.Objects;

/**
 * Argument checks and save rules shared by every provider, so that all of them word their errors
 * the same way. Custom providers are welcome to use them.
 */
public final class StorageChecks {
    private StorageChecks() {
    }

    /** Validates an agent id argument. */
    public static String requireAgentId(String agentId) {
        return Identifiers.requireValid(agentId, "agentId");
    }

    /** Validates a checkpoint id argument. */
    public static String requireCheckpointId(String checkpointId) {
        return Identifiers.requireValid(checkpointId, "checkpointId");
    }

    /** Validates a history segment id argument ({@link HistorySegmentStore}). */
    public static String requireSegmentId(String segmentId) {
        return Identifiers.requireValid(segmentId, "segmentId");
    }

    /**
     * Validates the arguments of {@code saveCheckpoint}.
     *
     * @throws IllegalArgumentException when the checkpoint belongs to another agent
     */
    public static void requireSaveArguments(String agentId, AgentCheckpoint checkpoint) {
        requireAgentId(agentId);
        Objects.requireNonNull(checkpoint, "checkpoint");
        if (!agentId.equals(checkpoint.agentId())) {
            throw new IllegalArgumentException("Checkpoint '" + checkpoint.checkpointId() + "' belongs to agent '"
                    + checkpoint.agentId() + "' but was saved under agent '" + agentId + "'");
        }
    }

    /**
     * Decides a save that met an existing checkpoint at the same version or id: returns normally
     * when both have the same content (the save is a no-op; JSON values compare by their JSON text), else throws.
     *
     * @throws CheckpointConflictException when the contents differ
     */
    public static void requireIdentical(String agentId, AgentCheckpoint incoming, AgentCheckpoint stored) {
        if (!CheckpointContent.same(incoming, stored)) {
            throw CheckpointConflictException.of(agentId, incoming, stored);
        }
    }

    /** Throws {@link IllegalStateException} when {@code closed}. */
    public static void requireOpen(boolean closed, String providerName) {
        if (closed) {
            throw new IllegalStateException(providerName + " is closed");
        }
    }
}
