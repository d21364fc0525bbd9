package dev.agentpersistence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rollback of {@link AgentPersistence} did.
 *
 * @param restoredCheckpoint the checkpoint the agent was put back to; empty when nothing was
 *                           restored (see {@link #outcome()})
 * @param toolRollback       the inverse tool calls made, those that failed, and the tool calls
 *                           that had no inverse; {@link UndoResult#EMPTY} when nothing was restored
 * @param outcome            why the checkpoint is present or absent
 */
public record RollbackReport(Optional<AgentCheckpoint> restoredCheckpoint, UndoResult toolRollback,
                             Outcome outcome) {

    /** How a rollback ended. */
    public enum Outcome {
        /** The agent was put back to {@link #restoredCheckpoint()}. */
        RESTORED,
        /** The agent has no checkpoint; nothing was restored or undone. */
        NO_CHECKPOINT,
        /** The latest checkpoint is a tombstone: the last run completed, so the agent starts fresh; nothing was restored or undone. */
        RUN_COMPLETED
    }

    public RollbackReport {
        Objects.requireNonNull(restoredCheckpoint, "restoredCheckpoint");
        Objects.requireNonNull(toolRollback, "toolRollback");
        Objects.requireNonNull(outcome, "outcome");
        if (restoredCheckpoint.isPresent() != (outcome == Outcome.RESTORED)) {
            throw new IllegalArgumentException("outcome " + outcome + " does not fit restoredCheckpoint "
                    + restoredCheckpoint);
        }
    }

    /** A rollback that restored {@code checkpoint}. */
    public static RollbackReport restored(AgentCheckpoint checkpoint, UndoResult toolRollback) {
        return new RollbackReport(Optional.of(checkpoint), toolRollback, Outcome.RESTORED);
    }

    /** A rollback that restored nothing, for the given reason. */
    public static RollbackReport nothingRestored(Outcome outcome) {
        return new RollbackReport(Optional.empty(), UndoResult.EMPTY, outcome);
    }

    /** Whether a checkpoint was restored. */
    public boolean isRestored() {
        return restoredCheckpoint.isPresent();
    }

    /** Inverse calls that completed, newest original call first. */
    public List<InverseCall> performed() {
        return toolRollback.performed();
    }

    /** Inverse calls that threw, newest original call first. */
    public List<InverseFailure> failures() {
        return toolRollback.failures();
    }

    /** Tool calls after the checkpoint whose tool has no inverse, newest first. */
    public List<ToolCall> withoutInverse() {
        return toolRollback.withoutInverse();
    }

    /** Whether no inverse call failed. */
    public boolean isClean() {
        return toolRollback.isClean();
    }
}
