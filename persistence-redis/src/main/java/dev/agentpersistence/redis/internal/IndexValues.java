package dev.agentpersistence.redis.internal;

import dev.agentpersistence.backend.SortableDigits;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * How versions and times are written into index entries so that Redis orders them correctly. Versions become 19-digit
 * zero-padded decimals (byte order = numeric order for every {@code long >= 0}, exact where a sorted-set score, a
 * double, would round above 2^53). Creation times become a score in epoch milliseconds (coarse; monotonic, so range
 * bounds never miss a match) and a 26-digit key ordered to the nanosecond for the exact check.
 */
public final class IndexValues {
    /** {@code -Instant.MIN.getEpochSecond()}: shifts every epoch second to a non-negative number. */
    private static final long SECONDS_OFFSET = -Instant.MIN.getEpochSecond();

    private IndexValues() {}

    /** {@code 42} → {@code 0000000000000000042}. */
    public static String version(long version) {
        return SortableDigits.of(version, SortableDigits.LONG_DIGITS);
    }

    /** The inverse of {@link #version(long)}. */
    public static long parseVersion(String padded) {
        return Long.parseLong(padded);
    }

    /** A key whose byte order is the order of the instants, to the nanosecond: 17 digits of seconds, 9 of nanos. */
    public static String instantKey(Instant instant) {
        return SortableDigits.of(instant.getEpochSecond() + SECONDS_OFFSET, 17)
                + SortableDigits.of(instant.getNano(), 9);
    }

    /**
     * The sorted-set score of an instant: epoch milliseconds, correctly rounded to a double. Monotonic (a later instant
     * never gets a smaller score), so inclusive score bounds taken from the filter's instants contain every match; the
     * exact comparison uses {@link #instantKey(Instant)}.
     */
    public static String instantScore(Instant instant) {
        double millis = BigDecimal.valueOf(instant.getEpochSecond())
                .scaleByPowerOfTen(3)
                .add(BigDecimal.valueOf(instant.getNano(), 6))
                .doubleValue();
        return Double.toString(millis);
    }
}
