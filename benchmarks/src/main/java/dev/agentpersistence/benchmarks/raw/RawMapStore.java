package dev.agentpersistence.benchmarks.raw;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The encoded bytes in a {@link ConcurrentHashMap}: a reference point for the in-memory provider only (which keeps
 * objects, not bytes, and is compared with the in-memory peers instead).
 */
public final class RawMapStore implements RawStore {
    private final Map<String, byte[]> map = new ConcurrentHashMap<>();

    @Override
    public void write(String key, byte[] value) {
        map.put(key, value.clone());
    }

    @Override
    public byte[] read(String key) {
        byte[] value = map.get(key);
        if (value == null) {
            throw new IllegalStateException("No key " + key);
        }
        return value.clone();
    }

    @Override
    public void delete(List<String> keys) {
        keys.forEach(map::remove);
    }

    @Override
    public void close() {
        map.clear();
    }
}
