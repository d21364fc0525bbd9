package dev.agentpersistence;

import java.util.List;

/**
 * What {@link RollbackToolRegistry#undo(List)} did (a rollback of a checkpoint reports it inside a
 * {@link RollbackReport}). Every undone call appears in exactly one of the three lists; all three are in the order the
 * undo visited the calls, newest call first.
 *
 * @param performed inverse calls that completed
 * @param failures inverse calls that threw, with their exceptions
 * @param withoutInverse tool calls whose tool has no registered inverse (left as they were)
 */
public record UndoResult(List<InverseCall> performed, List<InverseFailure> failures, List<ToolCall> withoutInverse) {

    /** Nothing to undo. */
    public static final UndoResult EMPTY = new UndoResult(List.of(), List.of(), List.of());

    public UndoResult {
        performed = performed == null ? List.of() : List.copyOf(performed);
        failures = failures == null ? List.of() : List.copyOf(failures);
        withoutInverse = withoutInverse == null ? List.of() : List.copyOf(withoutInverse);
    }

    /**
     * Whether every inverse that was called completed. Calls without an inverse do not make a result unclean (read-only
     * tools need none); inspect {@link #withoutInverse()} for them.
     */
    public boolean isClean() {
        return failures.isEmpty();
    }

    /** The number of inverse tools called, completed or failed. */
    public int inverseCallCount() {
        return performed.size() + failures.size();
    }

    /** The number of tool calls the undo was given: undone, failed and without inverse. */
    public int callCount() {
        return inverseCallCount() + withoutInverse.size();
    }

    /**
     * A summary line, then one line per call with its status ({@code undone}, {@code FAILED} with the error, {@code no
     * inverse}), for logs and terminals.
     */
    @Override
    public String toString() {
        var text = new StringBuilder("UndoResult: ").append(summary());
        appendCallLines(text);
        return text.toString();
    }

    /** "n undone, n failed, n without inverse", or "no tool calls". */
    String summary() {
        if (callCount() == 0) {
            return "no tool calls";
        }
        return performed.size() + " undone, " + failures.size() + " failed, " + withoutInverse.size()
                + " without inverse";
    }

    /** Appends one indented line per call: undone, failed, then those without inverse. */
    void appendCallLines(StringBuilder text) {
        for (var call : performed) {
            line(text, "undone", call.original()).append(" by ").append(call.inverseToolName());
        }
        for (var failure : failures) {
            line(text, "FAILED", failure.original())
                    .append(" by ")
                    .append(failure.inverseToolName())
                    .append(": ")
                    .append(failure.error());
        }
        for (var call : withoutInverse) {
            line(text, "no inverse", call).append(" (left as it was)");
        }
    }

    private static StringBuilder line(StringBuilder text, String status, ToolCall call) {
        return text.append(System.lineSeparator())
                .append("  ")
                .append(String.format("%-10s", status))
                .append(' ')
                .append(call.toolName())
                .append(" (call ")
                .append(call.id())
                .append(')');
    }
}
