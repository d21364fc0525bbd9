package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.observation.AgentObservationContext;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Function;

/**
 * Observes a pipeline's operations (a run, a node attempt, a checkpoint save or load) in one observation registry: one
 * observation each, named after the timer it gives ({@code PipelineMetrics}), with the low-cardinality key
 * {@code pipeline} and the keys the operation's result decides (a node attempt's {@code outcome}, a run's
 * {@code status} and {@code reason}). The storage calls an operation makes are observed inside it. Over the no-op
 * registry a call runs as is.
 */
public final class RunObservations {
    /** Observes nothing. */
    public static final RunObservations NONE = new RunObservations(ObservationRegistry.NOOP);

    private final ObservationRegistry registry;

    public RunObservations(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Runs {@code call} inside an observation {@code name} (a span named {@code agent.pipeline <operation>}) with the
     * keys {@code pipeline} and {@code keys}, and at its end the keys {@code endKeys} gives for its result, or
     * {@code errorKeys} when it throws.
     */
    public <T, E extends Exception> T observe(
            String name,
            String pipeline,
            String operation,
            KeyValues keys,
            Function<T, KeyValues> endKeys,
            KeyValues errorKeys,
            Call<T, E> call)
            throws E {
        if (registry.isNoop()) {
            return call.run();
        }
        var context = new AgentObservationContext(keys.and("pipeline", pipeline));
        Observation observation = Observation.createNotStarted(name, () -> context, registry)
                .contextualName("agent.pipeline " + operation)
                .start();
        KeyValues end = errorKeys;
        try (Observation.Scope ignored = observation.openScope()) {
            T result = call.run();
            end = endKeys.apply(result);
            return result;
        } catch (Throwable e) {
            observation.error(e);
            throw e;
        } finally {
            for (KeyValue key : end) {
                context.addLowCardinalityKeyValue(key);
            }
            observation.stop();
        }
    }

    /** An operation of a run. */
    @FunctionalInterface
    public interface Call<T, E extends Exception> {
        T run() throws E;
    }
}
