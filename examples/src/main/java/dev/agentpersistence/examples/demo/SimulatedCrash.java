package dev.agentpersistence.examples.demo;

/**
 * Stands for the process dying in the middle of a node: an {@link Error}, so the pipeline does not treat it as a failed
 * attempt to roll back and retry, but lets it end the run on the spot with the node's half-done work left on disk, as a
 * real crash would.
 */
public final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    /** A crash of {@code agent}'s node. */
    public SimulatedCrash(String agent) {
        super("simulated crash: the process died while " + agent + " was writing");
    }
}
