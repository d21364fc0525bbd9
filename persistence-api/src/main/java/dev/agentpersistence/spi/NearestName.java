package dev.agentpersistence.spi;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** The candidate closest to a mistyped name by edit distance (Levenshtein, case-insensitive), when one is close. */
final class NearestName {
    private NearestName() {}

    /**
     * The candidate nearest to {@code typed}, if its distance is at most a third of the longer name (at least 2), so
     * that unrelated names are not suggested.
     */
    static Optional<String> of(String typed, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String a = typed.toLowerCase(Locale.ROOT);
        for (String candidate : candidates) {
            int d = distance(a, candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        if (best == null || bestDistance == 0) {
            return Optional.empty();
        }
        int allowed = Math.max(2, Math.max(typed.length(), best.length()) / 3);
        return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** The Levenshtein distance of {@code a} and {@code b}. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
