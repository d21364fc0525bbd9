package dev.agentpersistence.observation.internal;

import dev.agentpersistence.RollbackReport;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservationContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.function.Function;

/** The observations of {@code AgentPersistence}: checkpoint creation and rollback, with their counts. */
public final class FacadeObservations {
    private final Observer observer;

    public FacadeObservations(ObservationRegistry registry) {
        this.observer = Observer.of(registry);
    }

    /** Runs a checkpoint creation of {@code kind} ({@code checkpoint} or {@code tombstone}) inside its observation. */
    public <T> T create(String kind, Observer.Call<T> call) {
        return observer.observe(
                StorageMetricNames.CHECKPOINT_CREATE, "agent.persistence create", KeyValues.of("kind", kind), call);
    }

    /** Runs a rollback to {@code target} ({@code checkpoint} or {@code latest}) inside its observation. */
    public RollbackReport rollback(String target, Function<AgentObservationContext, RollbackReport> call) {
        return observer.observe(
                StorageMetricNames.ROLLBACK, "agent.persistence rollback", KeyValues.of("target", target), context -> {
                    RollbackReport report = call.apply(context);
                    if (context != null) {
                        context.outcome(report.outcome().name().toLowerCase(Locale.ROOT));
                    }
                    return report;
                });
    }

    /** Counts one save tried again after a version conflict with another writer. */
    public static void countConflictRetry(AgentObservationContext context) {
        if (context != null) {
            context.count(StorageMetricNames.CONFLICT_RETRIES, KeyValues.empty(), 1);
        }
    }

    /** Counts the inverse tool calls of a rollback by outcome. */
    public static void countInverseCalls(AgentObservationContext context, int succeeded, int failed) {
        if (context != null) {
            context.count(
                    StorageMetricNames.INVERSE_CALLS,
                    KeyValues.of(StorageMetricNames.TAG_OUTCOME, "success"),
                    succeeded);
            context.count(
                    StorageMetricNames.INVERSE_CALLS, KeyValues.of(StorageMetricNames.TAG_OUTCOME, "failure"), failed);
        }
    }
}
