package dev.agentpersistence.pipeline;

/**
 * Receives a pipeline's {@link PipelineEvent}s, synchronously on the thread running the pipeline and in order. A
 * listener that throws is logged and ignored; it never changes the run.
 */
@FunctionalInterface
public interface PipelineListener {

    void onEvent(PipelineEvent event);
}
