package dev.agentpersistence.file.internal;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a provider found before, so it need not look or compute again: a hint only (a caller that finds the hint wrong,
 * because another process changed the directory, falls back to looking). Bounded: emptied when full. Thread-safe.
 *
 * @param <K> what is remembered by
 * @param <V> what is remembered
 */
final class Remembered<K, V> {
    /** Most entries remembered; emptied when full. */
    private static final int MAX_REMEMBERED = 4096;

    private final Map<K, V> entries = new ConcurrentHashMap<>();

    /** What is remembered for {@code key}. */
    Optional<V> get(K key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** Whether something is remembered for {@code key}. */
    boolean contains(K key) {
        return entries.containsKey(key);
    }

    /** Remembers {@code value} for {@code key}. */
    void put(K key, V value) {
        if (entries.size() >= MAX_REMEMBERED) {
            entries.clear();
        }
        entries.put(key, value);
    }

    /** Forgets {@code key}. */
    void remove(K key) {
        entries.remove(key);
    }
}
