package dev.agentpersistence.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/** Unique agent ids, and a scratch directory for a test class's {@link Backends}. */
final class Ids {
    private Ids() {}

    /** A fresh plain agent id ({@code a-z 0-9 -}) starting with {@code prefix}. */
    static String unique(String prefix) {
        return prefix + "-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    }

    /** A new directory that {@link #delete} removes. */
    static Path scratch(String prefix) throws java.io.IOException {
        return Files.createTempDirectory("agent-persistence-" + prefix);
    }

    static void delete(Path dir) throws java.io.IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
