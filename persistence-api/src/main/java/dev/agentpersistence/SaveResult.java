package dev.agentpersistence;

import java.util.Objects;
import java.util.Optional;

/**
 * What a batch save ({@link PersistenceStorageProvider#saveCheckpoints}) did with one of its checkpoints: saved it (or
 * found the identical checkpoint already stored, an idempotent retry), or refused it because another checkpoint of the
 * agent holds its version or its id.
 *
 * @param checkpoint the checkpoint of the batch this result is for
 * @param conflict the conflict a single {@code saveCheckpoint} of it would have thrown; empty when it is stored
 */
public record SaveResult(AgentCheckpoint checkpoint, Optional<CheckpointConflictException> conflict) {
    public SaveResult {
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(conflict, "conflict");
    }

    /** The checkpoint is stored (now, or already with the same content). */
    public static SaveResult saved(AgentCheckpoint checkpoint) {
        return new SaveResult(checkpoint, Optional.empty());
    }

    /** The checkpoint was not stored: {@code conflict} says which stored checkpoint holds its version or id. */
    public static SaveResult conflicting(AgentCheckpoint checkpoint, CheckpointConflictException conflict) {
        return new SaveResult(checkpoint, Optional.of(Objects.requireNonNull(conflict, "conflict")));
    }

    /** Whether the checkpoint is stored. */
    public boolean saved() {
        return conflict.isEmpty();
    }
}
