package dev.agentpersistence.redis.internal;

import dev.agentpersistence.backend.SortableDigits;
import java.time.Instant;

/**
 * How versions and times are written into index entries so that Redis orders them correctly. Versions become 19-digit
 * zero-padded decimals (byte order = numeric order for every {@code long >= 0}, exact where a sorted-set score, a
 * double, would round above 2^53). Creation times become a 26-digit key ordered to the nanosecond.
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
}
