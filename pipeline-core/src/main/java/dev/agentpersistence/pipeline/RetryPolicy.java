package dev.agentpersistence.pipeline;

import java.util.Objects;

/**
 * How often and how patiently something is retried: a maximum number of retries (after the first attempt) and a
 * {@link Backoff}. Immutable; build with {@link #custom()}.
 *
 * <p>Used for node attempts ({@link Pipeline.Builder#retryPolicy}, default {@link #ofDefaults()}: 3 retries, no wait,
 * as in the write-up this runtime follows) and for checkpoint saves hitting an unavailable store
 * ({@link Pipeline.Builder#checkpointRetry}).
 */
public final class RetryPolicy {
    /** Retries a node gets by default. */
    public static final int DEFAULT_MAX_RETRIES = 3;

    private static final RetryPolicy DEFAULTS = custom().build();

    private final int maxRetries;
    private final Backoff backoff;

    private RetryPolicy(Builder builder) {
        this.maxRetries = builder.maxRetries;
        this.backoff = builder.backoff;
    }

    /** 3 retries without waiting. */
    public static RetryPolicy ofDefaults() {
        return DEFAULTS;
    }

    /** No retry at all. */
    public static RetryPolicy noRetries() {
        return custom().maxRetries(0).build();
    }

    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from this policy's values. */
    public static Builder from(RetryPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return new Builder().maxRetries(policy.maxRetries).backoff(policy.backoff);
    }

    /** Retries after the first attempt; {@code 0} means one attempt only. */
    public int maxRetries() {
        return maxRetries;
    }

    /** {@link #maxRetries()} + 1. */
    public int maxAttempts() {
        return maxRetries + 1;
    }

    /** The wait before each retry. */
    public Backoff backoff() {
        return backoff;
    }

    @Override
    public String toString() {
        return "RetryPolicy[maxRetries=" + maxRetries + ", backoff=" + backoff + "]";
    }

    /** Builds a {@link RetryPolicy}; defaults: 3 retries, {@link Backoff#none()}. */
    public static final class Builder {
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Backoff backoff = Backoff.none();

        private Builder() {}

        /** Retries after the first attempt, {@code >= 0}. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must be >= 0 but was " + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        public Builder backoff(Backoff backoff) {
            this.backoff = Objects.requireNonNull(backoff, "backoff");
            return this;
        }

        public RetryPolicy build() {
            return new RetryPolicy(this);
        }
    }
}
