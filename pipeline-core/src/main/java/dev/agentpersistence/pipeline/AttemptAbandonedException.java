package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;
import java.util.List;
import java.util.Objects;

/**
 * The reason a node is retried after its previous attempt was cut off (its process ended before the attempt passed or
 * was rolled back): a resumed run found the attempt open in the write-ahead tool journal and undid its journaled tool
 * calls. It reaches the action as {@link RetryFeedback#exception()}, so {@link RetryFeedback#toPrompt()} tells the
 * model what was undone.
 */
public final class AttemptAbandonedException extends PersistenceException {
    private final String node;
    private final int attempt;
    private final List<String> possiblyDone;

    /**
     * @param runId the run
     * @param node the node whose attempt was cut off
     * @param attempt that attempt's number
     * @param calls how many of its tool calls were journaled (and so undone)
     * @param possiblyDone the calls ({@code tool (call id)}) with no recorded result: they may or may not have taken
     *     effect and were undone all the same
     */
    public AttemptAbandonedException(String runId, String node, int attempt, int calls, List<String> possiblyDone) {
        super("Attempt " + attempt + " of node '" + node + "' in run '" + runId + "' was cut off before it finished"
                + " (its process ended); its " + calls + " journaled tool call(s) were undone"
                + (possiblyDone.isEmpty()
                        ? ""
                        : ", including " + possiblyDone.size() + " with no recorded result (possibly done): "
                                + String.join(", ", possiblyDone)));
        this.node = Objects.requireNonNull(node, "node");
        this.attempt = attempt;
        this.possiblyDone = List.copyOf(possiblyDone);
    }

    /** The node whose attempt was cut off. */
    public String node() {
        return node;
    }

    /** The number of the attempt that was cut off. */
    public int attempt() {
        return attempt;
    }

    /** The calls that had no recorded result, as {@code tool (call id)}. */
    public List<String> possiblyDone() {
        return possiblyDone;
    }
}
