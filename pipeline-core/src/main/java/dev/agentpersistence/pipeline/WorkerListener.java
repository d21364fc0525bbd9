package dev.agentpersistence.pipeline;

/**
 * Receives {@link WorkerEvent}s on the worker's threads. A listener that throws is logged and ignored; it never changes
 * a run.
 */
@FunctionalInterface
public interface WorkerListener {

    void onEvent(WorkerEvent event);
}
