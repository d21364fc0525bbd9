package dev.agentpersistence.codec;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The text of {@link Instant#toString()}, character for character: for the years 0 to 9999 written here, without
 * {@link java.time.format.DateTimeFormatter} (whose class initialisation a short program's first encode would otherwise
 * wait for), for other years by {@code toString()} itself. The fraction of a second is left out when zero and otherwise
 * written in groups of three digits, as {@link java.time.format.DateTimeFormatter#ISO_INSTANT} writes it.
 */
final class InstantText {
    /** {@code 0000-01-01T00:00:00Z}. */
    private static final long FIRST_SECOND = -62_167_219_200L;
    /** {@code 9999-12-31T23:59:59Z}. */
    private static final long LAST_SECOND = 253_402_300_799L;

    private InstantText() {}

    /** {@code instant.toString()}. */
    static String of(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_SECOND || seconds > LAST_SECOND) {
            return instant.toString();
        }
        LocalDateTime time = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        var text = new StringBuilder(30);
        digits(text, time.getYear(), 4).append('-');
        digits(text, time.getMonthValue(), 2).append('-');
        digits(text, time.getDayOfMonth(), 2).append('T');
        digits(text, time.getHour(), 2).append(':');
        digits(text, time.getMinute(), 2).append(':');
        digits(text, time.getSecond(), 2);
        int nano = instant.getNano();
        if (nano > 0) {
            text.append('.');
            if (nano % 1_000_000 == 0) {
                digits(text, nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                digits(text, nano / 1_000, 6);
            } else {
                digits(text, nano, 9);
            }
        }
        return text.append('Z').toString();
    }

    /** Appends {@code value} (not negative) with leading zeros to {@code width} digits. */
    private static StringBuilder digits(StringBuilder text, int value, int width) {
        String plain = Integer.toString(value);
        for (int i = plain.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(plain);
    }
}
