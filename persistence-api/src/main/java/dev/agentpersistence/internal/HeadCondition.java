package dev.agentpersistence.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.backend.ExpectedHead;
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
        AgentCheckpoint head = expectedHead.get();
        if (!head.agentId().equals(agentId)) {
            throw new IllegalArgumentException("expected head '" + head.checkpointId() + "' is a checkpoint of agent '"
                    + head.agentId() + "', not of '" + agentId + "'");
        }
        if (checkpoint.version() <= head.version()) {
            throw new IllegalArgumentException("checkpoint '" + checkpoint.checkpointId() + "' has version "
                    + checkpoint.version() + ", not above its expected head's " + head.version());
        }
    }

    /** The head as a backend's conditional insert takes it. */
    public static Optional<ExpectedHead> expected(Optional<AgentCheckpoint> expectedHead) {
        return expectedHead.map(head -> new ExpectedHead(head.checkpointId(), head.version()));
    }

    /** Whether {@code newest} is {@code expectedHead}, by id and version (both empty: the agent has none). */
    public static boolean holds(Optional<AgentCheckpoint> expectedHead, Optional<AgentCheckpoint> newest) {
        return newest.isEmpty()
                ? expectedHead.isEmpty()
                : ExpectedHead.holds(
                        expected(expectedHead),
                        newest.get().checkpointId(),
                        newest.get().version());
    }

    /** The refusal of a save whose expected head is no longer the agent's newest checkpoint. */
    public static CheckpointConflictException moved(
            String agentId,
            Optional<ExpectedHead> expectedHead,
            AgentCheckpoint checkpoint,
            Optional<AgentCheckpoint> newest) {
        return new CheckpointConflictException(
                agentId,
                checkpoint.checkpointId(),
                checkpoint.version(),
                "Agent '" + agentId + "' is no longer at "
                        + expectedHead.map(ExpectedHead::toString).orElse("no checkpoint") + ": "
                        + newest.map(n -> "its newest is version " + n.version() + " (checkpoint '" + n.checkpointId()
                                        + "')")
                                .orElse("its checkpoints were deleted")
                        + "; nothing was saved (checkpoint '" + checkpoint.checkpointId() + "')");
    }
}
