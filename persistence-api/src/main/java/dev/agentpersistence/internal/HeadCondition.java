package dev.agentpersistence.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks and the refusal of a save that states the head it read
 * ({@link dev.agentpersistence.PersistenceStorageProvider#saveCheckpointAfter}), shared by the interface's default and
 * the storage shell.
 */
public final class HeadCondition {
    private HeadCondition() {}

    /**
     * Checks the arguments of a conditional save.
     *
     * @throws IllegalArgumentException when the expected head belongs to another agent or the checkpoint's version is
     *     not above it
     */
    public static void require(String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        Objects.requireNonNull(expectedHead, "expectedHead");
        Objects.requireNonNull(checkpoint, "checkpoint");
        if (expectedHead.isEmpty()) {
            return;
        }
        AgentCheckpoint head = requireOfAgent(agentId, expectedHead.get());
        if (checkpoint.version() <= head.version()) {
            throw new IllegalArgumentException("checkpoint '" + checkpoint.checkpointId() + "' has version "
                    + checkpoint.version() + ", not above its expected head's " + head.version());
        }
    }

    /**
     * Returns {@code head}, a head a writer states for {@code agentId}.
     *
     * @throws IllegalArgumentException when it is a checkpoint of another agent
     */
    public static AgentCheckpoint requireOfAgent(String agentId, AgentCheckpoint head) {
        if (!head.agentId().equals(agentId)) {
            throw new IllegalArgumentException("expected head '" + head.checkpointId() + "' is a checkpoint of agent '"
                    + head.agentId() + "', not of '" + agentId + "'");
        }
        return head;
    }

    /** Whether {@code newest} is {@code expectedHead}, by id and version (both empty: the agent has none). */
    public static boolean holds(Optional<AgentCheckpoint> expectedHead, Optional<AgentCheckpoint> newest) {
        if (newest.isEmpty() || expectedHead.isEmpty()) {
            return newest.isEmpty() && expectedHead.isEmpty();
        }
        return newest.get().version() == expectedHead.get().version()
                && newest.get().checkpointId().equals(expectedHead.get().checkpointId());
    }

    /** How a message names a head: its version and checkpoint id. */
    public static String describe(String checkpointId, long version) {
        return "version " + version + " (checkpoint '" + checkpointId + "')";
    }

    /**
     * The refusal of a save whose expected head, as {@link #describe} names it ({@code null}: no checkpoint), is no
     * longer the agent's newest checkpoint.
     */
    public static CheckpointConflictException moved(
            String agentId, String expectedHead, AgentCheckpoint checkpoint, Optional<AgentCheckpoint> newest) {
        return new CheckpointConflictException(
                agentId,
                checkpoint.checkpointId(),
                checkpoint.version(),
                "Agent '" + agentId + "' is no longer at " + (expectedHead == null ? "no checkpoint" : expectedHead)
                        + ": "
                        + newest.map(n -> "its newest is " + describe(n.checkpointId(), n.version()))
                                .orElse("its checkpoints were deleted")
                        + "; nothing was saved (checkpoint '" + checkpoint.checkpointId() + "')");
    }
}
