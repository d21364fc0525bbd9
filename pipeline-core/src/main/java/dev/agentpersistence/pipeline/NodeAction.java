package dev.agentpersistence.pipeline;

/**
 * The work of a node, for example one agent editing a document. Returns the state handed to the postconditions and,
 * when they pass, to the next node. Actions that edit a mutable state in place (such as a {@link FileWorkspace}) return
 * {@code context.state()}.
 *
 * <p>Throwing an exception fails the attempt like a postcondition violation: the state is restored, the attempt's tool
 * calls are undone and the node is retried with feedback.
 *
 * @param <S> the pipeline state type
 */
@FunctionalInterface
public interface NodeAction<S> {

    /** Runs one attempt and returns the resulting state (never {@code null}). */
    S run(NodeContext<S> context) throws Exception;
}
