package dev.agentpersistence.history;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which checkpoints {@link RetentionSweeper} keeps. Immutable; build with {@link #custom()}.
 *
 * <p>A checkpoint is kept when it is among the {@link #keepLatest()} newest of its agent (when set) and younger than
 * {@link #maxAge()} (when set); the others are deleted, oldest first, through {@code deleteCheckpointsBefore}. Age is
 * measured from the checkpoint's {@code createdAt}: the sweep deletes every version up to the newest one created before
 * {@code now - maxAge}.
 */
public final class RetentionPolicy {
    /** How many of each agent's newest checkpoints a sweep keeps ({@code agent.persistence.retention.keep-latest}). */
    public static final Setting<Integer> KEEP_LATEST = Setting.integer(
            "agent.persistence.retention.keep-latest",
            null,
            1,
            Integer.MAX_VALUE,
            "Keep this many newest checkpoints per agent; set it (or max-age) to sweep.");
    /** How old a checkpoint may get before a sweep removes it ({@code agent.persistence.retention.max-age}). */
    public static final Setting<Duration> MAX_AGE = Setting.duration(
            "agent.persistence.retention.max-age",
            null,
            "Remove checkpoints older than this (the newest of each agent is always kept); set it to sweep.");

    private static final RetentionPolicy KEEP_ALL = custom().build();

    private final Integer keepLatest;
    private final Duration maxAge;

    private RetentionPolicy(Builder builder) {
        this.keepLatest = builder.keepLatest;
        this.maxAge = builder.maxAge;
    }

    /** A policy that deletes no checkpoint (sweeps then only collect unused history segments). */
    public static RetentionPolicy keepAll() {
        return KEEP_ALL;
    }

    /** The policy of {@link #KEEP_LATEST} and {@link #MAX_AGE} in {@code config}; keep all when neither is set. */
    public static RetentionPolicy from(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        Builder policy = custom();
        KEEP_LATEST.find(config).ifPresent(policy::keepLatest);
        MAX_AGE.find(config).ifPresent(policy::maxAge);
        return policy.build();
    }

    /** Whether this policy deletes no checkpoint. */
    public boolean keepsAll() {
        return keepLatest == null && maxAge == null;
    }

    /** A builder that keeps everything until told otherwise. */
    public static Builder custom() {
        return new Builder();
    }

    /** How many of each agent's newest checkpoints are kept, when limited. */
    public OptionalInt keepLatest() {
        return keepLatest == null ? OptionalInt.empty() : OptionalInt.of(keepLatest);
    }

    /** How old a checkpoint may get, when limited. */
    public Optional<Duration> maxAge() {
        return Optional.ofNullable(maxAge);
    }

    @Override
    public String toString() {
        return "RetentionPolicy{keepLatest=" + (keepLatest == null ? "all" : keepLatest) + ", maxAge="
                + (maxAge == null ? "none" : maxAge) + "}";
    }

    /** Builds {@link RetentionPolicy}s; arguments are checked when set. */
    public static final class Builder {
        private Integer keepLatest;
        private Duration maxAge;

        private Builder() {}

        /** Keeps each agent's {@code count} newest checkpoints (at least 1) and deletes the older ones. */
        public Builder keepLatest(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("keepLatest must be at least 1 but was " + count);
            }
            this.keepLatest = count;
            return this;
        }

        /** Deletes checkpoints created more than {@code maxAge} (positive) before the sweep. */
        public Builder maxAge(Duration maxAge) {
            Objects.requireNonNull(maxAge, "maxAge");
            if (maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("maxAge must be positive but was " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        public RetentionPolicy build() {
            return new RetentionPolicy(this);
        }
    }
}
