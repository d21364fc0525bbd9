package dev.agentpersistence.pipeline;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Why a run failed.
 *
 * @param reason the kind of failure
 * @param node the node the run stopped at
 * @param attempts how many attempts of that node ran (0 when its preconditions failed)
 * @param violations the last violations (preconditions, or the last attempt's postconditions)
 * @param exception the last exception (the action's, the storage's, the backup's), or {@code null}
 */
public record PipelineFailure(
        Reason reason, String node, int attempts, List<Violation> violations, Throwable exception) {

    /** The kinds of run failure. */
    public enum Reason {
        /** A precondition of the node was violated; its action never ran. */
        PRECONDITION_FAILED,
        /** Every attempt of the node failed its postconditions or threw. */
        RETRIES_EXHAUSTED,
        /** The node passed, but its checkpoint could not be saved; the node's attempt was rolled back. */
        CHECKPOINT_FAILED,
        /** Taking or restoring the state backup failed; the state may hold a failed attempt's changes. */
        BACKUP_FAILED,
        /** The thread was interrupted; the node's attempt was rolled back. */
        INTERRUPTED
    }

    public PipelineFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(node, "node");
        violations = List.copyOf(Objects.requireNonNull(violations, "violations"));
    }

    /** A one-line summary, e.g. {@code "node 'concepts-writer' failed after 4 attempts: [...] ..."}. */
    public String describe() {
        String what = switch (reason) {
            case PRECONDITION_FAILED -> "node '" + node + "' did not start: preconditions failed";
            case RETRIES_EXHAUSTED ->
                "node '" + node + "' failed after " + attempts + " attempt" + (attempts == 1 ? "" : "s");
            case CHECKPOINT_FAILED -> "node '" + node + "' passed but its checkpoint could not be saved";
            case BACKUP_FAILED -> "node '" + node + "' could not back up or restore its state";
            case INTERRUPTED -> "node '" + node + "' was interrupted";
        };
        var details = new StringBuilder(what);
        if (!violations.isEmpty()) {
            details.append(": ")
                    .append(violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        if (exception != null) {
            details.append(violations.isEmpty() ? ": " : "; ").append(exception);
        }
        return details.toString();
    }
}
