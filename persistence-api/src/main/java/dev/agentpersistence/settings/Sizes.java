package dev.agentpersistence.settings;

import java.util.Locale;

/** Sizes in bytes as settings write them: {@code 1048576}, {@code 512KiB}, {@code 16MiB}, {@code 10MB}. */
final class Sizes {
    private Sizes() {}

    /** Parses a size; {@link IllegalArgumentException} (or {@link ArithmeticException}) when malformed. */
    static long parse(String text) {
        String s = text.strip();
        int split = 0;
        while (split < s.length() && Character.isDigit(s.charAt(split))) {
            split++;
        }
        long multiplier = switch (s.substring(split).strip().toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            default -> throw new IllegalArgumentException(text);
        };
        if (split == 0) {
            throw new IllegalArgumentException(text);
        }
        return Math.multiplyExact(Long.parseLong(s.substring(0, split)), multiplier);
    }

    /** The shortest exact binary-unit form: {@code 64MiB}, {@code 4KiB}, {@code 1000}. */
    static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + "GiB";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + "MiB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return bytes / (1L << 10) + "KiB";
        }
        return Long.toString(bytes);
    }
}
