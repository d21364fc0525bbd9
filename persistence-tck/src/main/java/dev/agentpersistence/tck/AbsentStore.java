package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;

/**
 * A store that does not exist (a directory, database file, table prefix or bucket nobody created), for the read-only
 * group of {@link StorageProviderCompatibilityKit}: opened read-only it must fail with a
 * {@link dev.agentpersistence.StorageNotFoundException} and leave nothing behind.
 */
public interface AbsentStore {

    /** A provider over this store, built with {@code settings} (the kit passes read-only ones). */
    PersistenceStorageProvider<CheckpointFilter> open(StorageSettings settings) throws Exception;

    /** Whether anything of the store exists now: the directory, the file, a table, the bucket. */
    boolean exists() throws Exception;
}
