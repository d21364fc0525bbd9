package dev.agentpersistence.pipeline;

import java.time.Duration;
import java.util.Objects;

/** How long to wait before a retry. Implementations are stateless and thread-safe. */
@FunctionalInterface
public interface Backoff {

    /**
     * The wait before retry number {@code retry} (1 for the first retry).
     *
     * @return a non-negative duration
     */
    Duration delayBeforeRetry(int retry);

    /** Retries at once. */
    static Backoff none() {
        return retry -> Duration.ZERO;
    }

    /** Waits {@code delay} before every retry. */
    static Backoff fixed(Duration delay) {
        requireNotNegative(delay, "delay");
        return retry -> delay;
    }

    /**
     * Waits {@code initial}, then {@code initial * multiplier}, {@code initial * multiplier^2}, …, never more than
     * {@code max}.
     */
    static Backoff exponential(Duration initial, double multiplier, Duration max) {
        requireNotNegative(initial, "initial");
        requireNotNegative(max, "max");
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("multiplier must be a finite number >= 1 but was " + multiplier);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max " + max + " must be >= initial " + initial);
        }
        return retry -> {
            if (retry < 1) {
                throw new IllegalArgumentException("retry must be >= 1 but was " + retry);
            }
            double nanos = initial.toNanos() * Math.pow(multiplier, retry - 1);
            return nanos >= max.toNanos() ? max : Duration.ofNanos((long) nanos);
        };
    }

    private static void requireNotNegative(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative but was " + duration);
        }
    }
}
