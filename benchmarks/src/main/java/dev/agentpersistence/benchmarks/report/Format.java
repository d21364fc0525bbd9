package dev.agentpersistence.benchmarks.report;

import java.util.Locale;

/** Number formatting for the summary tables. */
final class Format {
    private Format() {}

    /** A duration given in microseconds, with three significant digits in µs, ms or s. */
    static String micros(double micros) {
        if (Double.isNaN(micros)) {
            return "–";
        }
        if (micros < 1000) {
            return significant(micros) + " µs";
        }
        if (micros < 1_000_000) {
            return significant(micros / 1000) + " ms";
        }
        return significant(micros / 1_000_000) + " s";
    }

    /** A duration given in milliseconds. */
    static String millis(double millis) {
        return micros(millis * 1000);
    }

    /** A ratio such as {@code 1.23×}. */
    static String ratio(double ratio) {
        if (Double.isNaN(ratio) || Double.isInfinite(ratio)) {
            return "–";
        }
        return significant(ratio) + "×";
    }

    /** Three significant digits (more for numbers of 1,000 and above, never in exponent form). */
    private static String significant(double value) {
        double magnitude = Math.abs(value);
        String pattern = magnitude < 10 ? "%.2f" : magnitude < 100 ? "%.1f" : "%.0f";
        return String.format(Locale.ROOT, pattern, value);
    }

    /** A byte count in B, KiB or MiB. */
    static String bytes(double bytes) {
        if (Double.isNaN(bytes) || bytes < 0) {
            return "–";
        }
        if (bytes < 1024) {
            return String.format(Locale.ROOT, "%.0f B", bytes);
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024 * 1024));
    }

    /** "met" or "**not met**", or "–" when it could not be decided. */
    static String verdict(double value, double limit, boolean atMost) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return (atMost ? value <= limit : value >= limit) ? "met" : "**not met**";
    }
}
