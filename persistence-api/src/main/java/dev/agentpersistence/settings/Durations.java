package dev.agentpersistence.settings;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as settings write them: ISO-8601 ({@code PT30S}) or a number with a unit ({@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 2h}, {@code 7d}).
 */
final class Durations {
    private Durations() {}

    /** Parses a duration; a runtime exception when malformed. */
    static Duration parse(String text) {
        String s = text.strip();
        if (s.startsWith("P") || s.startsWith("p")) {
            return Duration.parse(s);
        }
        int split = 0;
        while (split < s.length() && Character.isDigit(s.charAt(split))) {
            split++;
        }
        if (split == 0) {
            throw new IllegalArgumentException(text);
        }
        long amount = Long.parseLong(s.substring(0, split));
        return switch (s.substring(split).strip().toLowerCase(Locale.ROOT)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s", "" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> throw new IllegalArgumentException(text);
        };
    }

    /** The shortest exact form with one unit: {@code 7d}, {@code 1h}, {@code 10m}, {@code 30s}, {@code 500ms}. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (!Duration.ofMillis(millis).equals(duration)) {
            return duration.toString();
        }
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] names = {"d", "h", "m", "s"};
        for (int i = 0; i < units.length; i++) {
            if (millis != 0 && millis % units[i] == 0) {
                return millis / units[i] + names[i];
            }
        }
        return millis + "ms";
    }
}
