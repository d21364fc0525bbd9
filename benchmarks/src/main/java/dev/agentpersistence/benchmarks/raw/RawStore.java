package dev.agentpersistence.benchmarks.raw;

import java.util.List;

/**
 * A backend's own client storing bytes under keys with one write or one read per call: the baseline our providers are
 * compared with. Writes never overwrite (every key is new).
 */
public interface RawStore extends AutoCloseable {

    /** Stores {@code value} under a new {@code key}, as durably as the backend's default. */
    void write(String key, byte[] value);

    /** The bytes under {@code key}. */
    byte[] read(String key);

    /** Removes the given keys (between measurement iterations). */
    void delete(List<String> keys);

    @Override
    void close();
}
