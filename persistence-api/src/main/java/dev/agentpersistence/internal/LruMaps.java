package dev.agentpersistence.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** Maps that keep the most recently used entries, up to a bound. */
public final class LruMaps {
    private LruMaps() {}

    /**
     * An access-ordered map that drops its least recently used entry once it holds more than {@code maxEntries}; not
     * thread-safe.
     */
    public static <K, V> Map<K, V> bounded(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1 but was " + maxEntries);
        }
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > maxEntries;
            }
        };
    }
}
