package dev.agentpersistence.examples.demo;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.pipeline.ConditionPhase;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.PipelineListener;
import dev.agentpersistence.pipeline.Violation;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;

/**
 * Prints a pipeline's progress, one short line per step, and the retry feedback the model gets. For one run at a time:
 * a checkpoint saved before the run started is the claim of a continued run.
 */
public final class ProgressPrinter implements PipelineListener {
    private final PrintStream out;
    /** Whether the current run has started (its {@code RunStarted} event came); saves before that are claims. */
    private boolean started;

    public ProgressPrinter(PrintStream out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public void onEvent(PipelineEvent event) {
        if (event instanceof PipelineEvent.RunStarted e) {
            started = true;
            if (!e.resumed()) {
                return;
            }
            out.println(
                    Pipeline.START_NODE_ID.equals(e.resumedAfter())
                            ? "  resumed before the first node (only the input was checkpointed)"
                            : "  resumed after " + e.resumedAfter()
                                    + ": the nodes up to it are finished and are skipped;\n"
                                    + "  the workspace is put back as that checkpoint saved it: the half-written "
                                    + "section of the crashed node is discarded");
        } else if (event instanceof PipelineEvent.NodeStarted e) {
            line(e.node(), "attempt " + e.attempt() + "/" + e.maxAttempts());
        } else if (event instanceof PipelineEvent.ValidationFailed e) {
            String phase = e.phase() == ConditionPhase.PRECONDITION ? "precondition" : "postcondition";
            for (Violation violation : e.violations()) {
                line(e.node(), phase + " failed: " + violation.message());
            }
        } else if (event instanceof PipelineEvent.NodeFailed e && e.exception() != null) {
            line(e.node(), "attempt " + e.attempt() + " threw " + e.exception());
        } else if (event instanceof PipelineEvent.RollbackPerformed e) {
            int undone = e.toolRollback().performed().size();
            line(
                    e.node(),
                    "rolled back: workspace restored to its state before attempt " + e.attempt()
                            + (undone == 0 ? "" : ", " + undone + " tool call(s) undone"));
        } else if (event instanceof PipelineEvent.RetryScheduled e) {
            line(
                    e.node(),
                    "retry " + e.feedback().retry() + "/" + e.feedback().maxRetries()
                            + " with this feedback at the top of the prompt:");
            e.feedback().toPrompt().lines().forEach(text -> out.println("      | " + text));
        } else if (event instanceof PipelineEvent.CheckpointSaved e) {
            if (!started) {
                line(
                        "(claim)",
                        "checkpoint v" + e.version() + " saved: a copy of v" + (e.version() - 1) + " (" + e.node()
                                + ") that makes this process the run's only runner");
            } else if (Pipeline.START_NODE_ID.equals(e.node())) {
                line("(input)", "checkpoint v" + e.version() + " saved: the run's input");
            } else if (!AgentCheckpoint.TOMBSTONE_NODE_ID.equals(e.node())) {
                line(e.node(), "passed, checkpoint v" + e.version() + " saved (" + size(e.sizeBytes()) + ")");
            }
        } else if (event instanceof PipelineEvent.RunFinished e) {
            started = false;
            out.println(
                    e.failure() == null
                            ? "  run " + e.runId() + " completed in "
                                    + e.duration().toMillis() + " ms"
                            : "  run " + e.runId() + " failed: " + e.failure().describe());
        }
    }

    private void line(String node, String text) {
        out.printf(Locale.ROOT, "  %-21s %s%n", node, text);
    }

    /** {@code 812 B}, {@code 3.4 kB}, {@code 1.2 MB}. */
    static String size(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        return bytes < 1_000_000
                ? String.format(Locale.ROOT, "%.1f kB", bytes / 1000.0)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1_000_000.0);
    }
}
