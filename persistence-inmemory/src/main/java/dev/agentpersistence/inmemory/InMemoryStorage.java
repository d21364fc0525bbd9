package dev.agentpersistence.inmemory;

import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.storage.StorageShell;

/**
 * Entry point of the in-memory provider: checkpoints in the heap of one provider, gone when it is closed or the JVM
 * exits. {@link #builder()} returns the shell's builder over the in-memory backend: per agent a skip list by version
 * (latest and {@code maxVersion} ranges in O(log n), a {@code limit} walks down from the newest match) and an id index.
 * Like every provider it stores the encoded form, so callers never share mutable state with the store, and it reads
 * every form any provider writes. Latest answers from the checkpoint it last read while no newer one is saved.
 * Thread-safe.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage = InMemoryStorage.builder().build();
 * }</pre>
 */
public final class InMemoryStorage {
    private InMemoryStorage() {}

    /** A new, empty store; each {@code build()} gives an independent one. */
    public static StorageShell.Builder builder() {
        return StorageShell.builder(context -> new InMemoryStorageBackend(context.clock()));
    }
}
