package dev.agentpersistence.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The meters of {@code AgentPersistence}; records nothing when built without a registry. Timer and counter names are
 * part of the public documentation of {@code AgentPersistence}.
 */
public final class FacadeMetrics {
    public static final String CHECKPOINT_CREATE = "agent.persistence.checkpoint.create";
    public static final String ROLLBACK = "agent.persistence.rollback";
    public static final String INVERSE_CALLS = "agent.persistence.rollback.inverse.calls";
    public static final String CONFLICT_RETRIES = "agent.persistence.checkpoint.conflict.retries";

    private final MeterRegistry registry;
    /** Registered up front, so the counter is published (at zero) before the first conflict. */
    private final Counter conflictRetries;

    public FacadeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.conflictRetries = registry == null
                ? null
                : Counter.builder(CONFLICT_RETRIES)
                        .description("Checkpoint saves tried again after another writer took the version")
                        .register(registry);
    }

    /** A start time for {@link #recordCreate} and {@link #recordRollback}. */
    public long start() {
        return System.nanoTime();
    }

    /** Times one checkpoint creation; {@code outcome} is {@code success}, {@code conflict} or {@code error}. */
    public void recordCreate(long start, String kind, String outcome) {
        if (registry != null) {
            Timer.builder(CHECKPOINT_CREATE)
                    .description("Time to create and save one checkpoint through AgentPersistence")
                    .tag("kind", kind)
                    .tag("outcome", outcome)
                    .register(registry)
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** Times one rollback; {@code outcome} is a lower-case {@code RollbackReport.Outcome} or {@code error}. */
    public void recordRollback(long start, String target, String outcome) {
        if (registry != null) {
            Timer.builder(ROLLBACK)
                    .description("Time to roll an agent back: undo tool calls and restore a checkpoint")
                    .tag("target", target)
                    .tag("outcome", outcome)
                    .register(registry)
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** Counts inverse tool calls by outcome ({@code success} or {@code failure}). */
    public void countInverseCalls(int succeeded, int failed) {
        if (registry != null) {
            inverseCounter("success").increment(succeeded);
            inverseCounter("failure").increment(failed);
        }
    }

    /**
     * Counts one save tried again after a version conflict with another writer, whether or not the attempt counts
     * against the facade's retry limit.
     */
    public void countConflictRetry() {
        if (conflictRetries != null) {
            conflictRetries.increment();
        }
    }

    private Counter inverseCounter(String outcome) {
        return Counter.builder(INVERSE_CALLS)
                .description("Inverse tool calls made by rollbacks")
                .tag("outcome", outcome)
                .register(registry);
    }
}
