package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.PipelineListener;
import io.micrometer.common.KeyValues;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one run's events to the pipeline's listeners (a throwing listener is logged and skipped) and observes its
 * operations.
 */
public final class RunEvents {
    private static final Logger LOG = LoggerFactory.getLogger(RunEvents.class);

    private final String pipeline;
    private final String runId;
    private final Clock clock;
    private final List<PipelineListener> listeners;
    private final RunObservations observations;

    public RunEvents(
            String pipeline,
            String runId,
            Clock clock,
            List<PipelineListener> listeners,
            RunObservations observations) {
        this.pipeline = pipeline;
        this.runId = runId;
        this.clock = clock;
        this.listeners = listeners;
        this.observations = observations;
    }

    /** Runs the operation {@code call} inside its observation {@code name}; see {@link RunObservations#observe}. */
    public <T, E extends Exception> T observe(
            String name,
            String operation,
            KeyValues keys,
            Function<T, KeyValues> endKeys,
            KeyValues errorKeys,
            RunObservations.Call<T, E> call)
            throws E {
        return observations.observe(name, pipeline, operation, keys, endKeys, errorKeys, call);
    }

    public String pipeline() {
        return pipeline;
    }

    public String runId() {
        return runId;
    }

    /** The pipeline clock's current instant. */
    public Instant now() {
        return clock.instant();
    }

    /** The time from {@code start} to now, never negative. */
    public Duration since(Instant start) {
        Duration elapsed = Duration.between(start, clock.instant());
        return elapsed.isNegative() ? Duration.ZERO : elapsed;
    }

    public void publish(PipelineEvent event) {
        for (PipelineListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn(
                        "Pipeline listener {} failed on {}: {}",
                        listener,
                        event.getClass().getSimpleName(),
                        e.toString(),
                        e);
            }
        }
    }
}
