package dev.agentpersistence.pipeline;

import dev.agentpersistence.ToolCall;
import dev.agentpersistence.UndoResult;
import java.util.List;
import java.util.Objects;

/**
 * What a node's action is told when it runs again after a failed attempt: the previous attempt was rolled back, the
 * state is as it was before that attempt, and why it failed. A model-backed action prepends {@link #toPrompt()} to its
 * prompt, so the model does not answer "already done" from a conversation that still remembers the rolled-back work.
 *
 * @param node the node being retried
 * @param retry which retry this is, 1 for the first
 * @param maxRetries the retries allowed in total
 * @param violations the postcondition violations of the previous attempt (empty when it threw)
 * @param exception what the previous attempt threw, or {@code null} when it failed validation
 * @param rollback the inverse tool calls made for the previous attempt's tool calls
 */
public record RetryFeedback(
        String node, int retry, int maxRetries, List<Violation> violations, Throwable exception, UndoResult rollback) {

    public RetryFeedback {
        Objects.requireNonNull(node, "node");
        if (retry < 1 || retry > maxRetries) {
            throw new IllegalArgumentException("need 1 <= retry <= maxRetries but got " + retry + "/" + maxRetries);
        }
        violations = List.copyOf(Objects.requireNonNull(violations, "violations"));
        rollback = rollback == null ? UndoResult.EMPTY : rollback;
        if (violations.isEmpty() && exception == null) {
            throw new IllegalArgumentException("a retry needs violations or an exception");
        }
    }

    /**
     * The feedback block, e.g.
     *
     * <pre>
     * [RETRY ATTEMPT 1/3]
     * ⚠️ ROLLBACK PERFORMED
     * Your previous output failed postcondition validation and has been rolled back.
     * Everything it changed has been restored to its state BEFORE your last execution.
     * Validation errors from previous attempt:
     * - section `# Core Concepts` missing
     * </pre>
     *
     * followed, when tools were involved, by lines about undone and not undone tool calls.
     */
    public String toPrompt() {
        var text = new StringBuilder();
        text.append("[RETRY ATTEMPT ")
                .append(retry)
                .append('/')
                .append(maxRetries)
                .append("]\n");
        text.append("⚠️ ROLLBACK PERFORMED\n");
        if (exception == null) {
            text.append("Your previous output failed postcondition validation and has been rolled back.\n");
        } else {
            text.append("Your previous execution failed with an error and has been rolled back.\n");
        }
        text.append("Everything it changed has been restored to its state BEFORE your last execution.\n");
        if (!violations.isEmpty()) {
            text.append("Validation errors from previous attempt:\n");
            violations.forEach(v -> text.append("- ").append(v.message()).append('\n'));
        }
        if (exception != null) {
            text.append("Error from previous attempt:\n- ")
                    .append(describe(exception))
                    .append('\n');
        }
        if (!rollback.performed().isEmpty()) {
            text.append("Tool calls undone: ")
                    .append(rollback.performed().size())
                    .append('\n');
        }
        if (!rollback.failures().isEmpty()) {
            text.append("Tool calls that could NOT be undone (their effects remain):\n");
            rollback.failures()
                    .forEach(f -> text.append("- ")
                            .append(describe(f.original()))
                            .append(": ")
                            .append(describe(f.error()))
                            .append('\n'));
        }
        if (!rollback.withoutInverse().isEmpty()) {
            text.append("Tool calls without an undo (their effects remain):\n");
            rollback.withoutInverse()
                    .forEach(c -> text.append("- ").append(describe(c)).append('\n'));
        }
        return text.toString();
    }

    private static String describe(ToolCall call) {
        return call.toolName() + " (call " + call.id() + ")";
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
