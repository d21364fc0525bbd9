package dev.agentpersistence.observation.internal;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservationContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs calls inside observations of one registry, adding the {@code outcome} key: {@code success}, {@code not_found}
 * (an empty {@code Optional}), {@code conflict}, {@code unsupported} or {@code error}, unless the call reported its own
 * ({@link AgentObservationContext#outcome(String)}). Over the no-op registry a call runs as is.
 */
public final class Observer {
    private static final Observer NONE = new Observer(ObservationRegistry.NOOP);

    private final ObservationRegistry registry;

    private Observer(ObservationRegistry registry) {
        this.registry = registry;
    }

    /** An observer over {@code registry}. */
    public static Observer of(ObservationRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        return registry.isNoop() ? NONE : new Observer(registry);
    }

    /** The registry observed into. */
    public ObservationRegistry registry() {
        return registry;
    }

    /**
     * Runs {@code call} inside an observation named {@code name} (a span named {@code contextualName}) with the
     * low-cardinality {@code keys}.
     */
    public <T> T observe(String name, String contextualName, KeyValues keys, Call<T> call) {
        if (registry.isNoop()) {
            return call.run(null);
        }
        var context = new AgentObservationContext(keys);
        Observation observation = Observation.createNotStarted(name, () -> context, registry)
                .contextualName(contextualName)
                .start();
        String outcome = StorageMetricNames.OUTCOME_SUCCESS;
        try (Observation.Scope ignored = observation.openScope()) {
            T result = call.run(context);
            if (context.outcome() != null) {
                outcome = context.outcome();
            } else if (result instanceof Optional<?> optional && optional.isEmpty()) {
                outcome = StorageMetricNames.OUTCOME_NOT_FOUND;
            }
            return result;
        } catch (CheckpointConflictException e) {
            outcome = StorageMetricNames.OUTCOME_CONFLICT;
            throw e;
        } catch (UnsupportedOperationException e) {
            outcome = StorageMetricNames.OUTCOME_UNSUPPORTED;
            throw e;
        } catch (RuntimeException | Error e) {
            outcome = StorageMetricNames.OUTCOME_ERROR;
            observation.error(e);
            throw e;
        } finally {
            context.outcome(outcome);
            observation.stop();
        }
    }

    /** A call that may record what it wrote in the context ({@code null} over the no-op registry). */
    @FunctionalInterface
    public interface Call<T> {
        T run(AgentObservationContext context);
    }
}
