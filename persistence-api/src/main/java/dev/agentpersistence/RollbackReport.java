package dev.agentpersistence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rollback of {@link AgentPersistence} did. {@link #toString()} reads as a short report: a summary line, then
 * one line per tool call with its status.
 *
 * <p>Only tool calls recorded in the agent's message history as {@link Message.Role#TOOL_CALL} messages
 * ({@link Message#toolCall(ToolCall)}) can be undone. When none were recorded after the checkpoint,
 * {@link #noCallsFound()} is {@code true}: nothing was undone, and the report is still {@linkplain #isClean() clean}
 * because nothing failed.
 *
 * @param restoredCheckpoint the checkpoint the agent was put back to; empty when nothing was restored (see
 *     {@link #outcome()})
 * @param toolRollback the inverse tool calls made, those that failed, and the tool calls that had no inverse;
 *     {@link UndoResult#EMPTY} when nothing was restored
 * @param outcome why the checkpoint is present or absent
 */
public record RollbackReport(Optional<AgentCheckpoint> restoredCheckpoint, UndoResult toolRollback, Outcome outcome) {

    /** How a rollback ended. */
    public enum Outcome {
        /** The agent was put back to {@link #restoredCheckpoint()}. */
        RESTORED,
        /** The agent has no checkpoint; nothing was restored or undone. */
        NO_CHECKPOINT,
        /**
         * The latest checkpoint is a tombstone: the last run completed, so the agent starts fresh; nothing was restored
         * or undone.
         */
        RUN_COMPLETED
    }

    public RollbackReport {
        Objects.requireNonNull(restoredCheckpoint, "restoredCheckpoint");
        Objects.requireNonNull(toolRollback, "toolRollback");
        Objects.requireNonNull(outcome, "outcome");
        if (restoredCheckpoint.isPresent() != (outcome == Outcome.RESTORED)) {
            throw new IllegalArgumentException(
                    "outcome " + outcome + " does not fit restoredCheckpoint " + restoredCheckpoint);
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

    /**
     * Whether no inverse call failed. Also {@code true} when there was nothing to undo: see {@link #noCallsFound()}.
     */
    public boolean isClean() {
        return toolRollback.isClean();
    }

    /**
     * Whether a checkpoint was restored but no tool calls were recorded since it, so nothing was undone. Tool calls the
     * agent made without appending a {@link Message.Role#TOOL_CALL} message to its history are invisible to a rollback;
     * when this is unexpected, check that they are recorded.
     */
    public boolean noCallsFound() {
        return isRestored() && toolRollback.callCount() == 0;
    }

    /**
     * A summary line, then one line per tool call with its status, for logs and terminals, e.g.
     *
     * <pre>
     * Rollback to checkpoint 'c1' (version 3) of agent 'a': restored; tool calls: 1 undone, 1 failed, 0 without inverse
     *   undone     createUser (call call-2) by removeUser
     *   FAILED     createUser (call call-1) by removeUser: java.io.IOException: disk full
     * </pre>
     */
    @Override
    public String toString() {
        var text = new StringBuilder("Rollback");
        switch (outcome) {
            case NO_CHECKPOINT -> text.append(": the agent has no checkpoint; nothing restored or undone");
            case RUN_COMPLETED ->
                text.append(": the agent's last run completed (tombstone); nothing restored or undone");
            case RESTORED -> {
                var checkpoint = restoredCheckpoint.get();
                text.append(" to checkpoint '")
                        .append(checkpoint.checkpointId())
                        .append("' (version ")
                        .append(checkpoint.version())
                        .append(") of agent '")
                        .append(checkpoint.agentId())
                        .append("': restored; ");
                if (noCallsFound()) {
                    text.append("no tool calls recorded since the checkpoint — nothing to undo");
                } else {
                    text.append("tool calls: ").append(toolRollback.summary());
                    toolRollback.appendCallLines(text);
                }
            }
        }
        return text.toString();
    }
}
