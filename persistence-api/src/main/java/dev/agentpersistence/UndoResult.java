package dev.agentpersistence;

import java.util.List;

/**
 * What {@link RollbackToolRegistry#undo(List)} did (a rollback of a checkpoint reports it inside a
 * {@link RollbackReport}). Every undone call appears in exactly one of
 * the three lists; all three are in the order the undo visited the calls, newest call first.
 *
 * @param performed      inverse calls that completed
 * @param failures       inverse calls that threw, with their exceptions
 * @param withoutInverse tool calls whose tool has no registered inverse (left as they were)
 */
public record UndoResult(List<InverseCall> performed, List<InverseFailure> failures,
                             List<ToolCall> withoutInverse) {

    /** Nothing to undo. */
    public static final UndoResult EMPTY = new UndoResult(List.of(), List.of(), List.of());

    public UndoResult {
        performed = performed == null ? List.of() : List.copyOf(performed);
        failures = failures == null ? List.of() : List.copyOf(failures);
        withoutInverse = withoutInverse == null ? List.of() : List.copyOf(withoutInverse);
    }

    /**
     * Whether every inverse that was called completed. Calls without an inverse do not make a
     * result unclean (read-only tools need none); inspect {@link #withoutInverse()} for them.
     */
    public boolean isClean() {
        return failures.isEmpty();
    }

    /** The number of inverse tools called, completed or failed. */
    public int inverseCallCount() {
        return performed.size() + failures.size();
    }
}
