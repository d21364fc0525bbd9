package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Defensive, canonical (key-sorted, unmodifiable) copies of the maps held by records. */
public final class Maps {
    private Maps() {}

    public static Map<String, String> sortedStringMap(Map<String, String> source, String what) {
        if (source == null || source.isEmpty()) {
            return Map.of();
        }
        if (source instanceof UnmodifiableSorted) {
            return source;
        }
        var copy = new TreeMap<String, String>();
        source.forEach((k, v) -> copy.put(
                Objects.requireNonNull(k, () -> what + " has a null key"),
                Objects.requireNonNull(v, () -> what + " has a null value for key '" + k + "'")));
        return new UnmodifiableSorted<>(copy);
    }

    /** A sorted, modifiable copy of {@code source} with {@code key} set to {@code value}. */
    public static <V> Map<String, V> with(Map<String, V> source, String key, V value) {
        var copy = new TreeMap<>(source);
        copy.put(key, value);
        return copy;
    }

    /** Copies a state map; {@code null} values become JSON {@code null}. */
    public static Map<String, JsonNode> sortedJsonMap(Map<String, JsonNode> source, String what) {
        if (source == null || source.isEmpty()) {
            return Map.of();
        }
        if (source instanceof UnmodifiableSorted) {
            return source;
        }
        var copy = new TreeMap<String, JsonNode>();
        source.forEach((k, v) -> copy.put(
                Objects.requireNonNull(k, () -> what + " has a null key"), v == null ? NullNode.getInstance() : v));
        return new UnmodifiableSorted<>(copy);
    }

    /** Marker type so already-canonical maps are not copied again. */
    private static final class UnmodifiableSorted<V> extends java.util.AbstractMap<String, V> {
        private final Map<String, V> delegate;

        UnmodifiableSorted(TreeMap<String, V> delegate) {
            this.delegate = Collections.unmodifiableMap(delegate);
        }

        @Override
        public java.util.Set<Entry<String, V>> entrySet() {
            return delegate.entrySet();
        }

        @Override
        public V get(Object key) {
            return delegate.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return delegate.containsKey(key);
        }

        @Override
        public int size() {
            return delegate.size();
        }
    }
}
