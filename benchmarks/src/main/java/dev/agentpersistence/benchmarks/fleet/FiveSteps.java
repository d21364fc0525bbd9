package dev.agentpersistence.benchmarks.fleet;

/** The DBOS side of the fleet benchmark: a workflow of five steps, each adding one to the value. */
public interface FiveSteps {
    /** Runs the five steps on {@code input} and returns {@code input + 5}. */
    int run(int input) throws InterruptedException;
}
