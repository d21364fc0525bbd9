package dev.agentpersistence.s3.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** A thread-safe map that keeps its most recently used entries, up to a bound (what a provider remembers per agent). */
final class RecentlyUsed<K, V> {
    private final Map<K, V> entries;

    RecentlyUsed(int maxEntries) {
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > maxEntries;
            }
        };
    }

    synchronized V get(K key) {
        return entries.get(key);
    }

    synchronized void put(K key, V value) {
        entries.put(key, value);
    }

    synchronized V remove(K key) {
        return entries.remove(key);
    }
}
