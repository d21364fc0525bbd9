package dev.agentpersistence.file.internal;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Paths a provider found in some state before, so it need not look again: a hint only (a caller
 * that finds the hint wrong, because another process changed the directory, falls back to looking).
 * Bounded: emptied when full. Thread-safe.
 */
final class RememberedPaths {
    /** Most paths remembered; the set is emptied when full. */
    private static final int MAX_REMEMBERED = 4096;

    private final Set<Path> paths = ConcurrentHashMap.newKeySet();

    /** Whether {@code path} is remembered. */
    boolean contains(Path path) {
        return paths.contains(path);
    }

    /** Remembers {@code path}. */
    void add(Path path) {
        if (paths.size() >= MAX_REMEMBERED) {
            paths.clear();
        }
        paths.add(path);
    }

    /** Forgets {@code path}. */
    void remove(Path path) {
        paths.remove(path);
    }
}
