package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

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

    /**
     * A store in {@code directory}, which does not exist yet: it exists once the directory does.
     *
     * @param open builds a provider over {@code directory} with the settings the kit passes
     */
    static AbsentStore inDirectory(
            Path directory, Function<StorageSettings, PersistenceStorageProvider<CheckpointFilter>> open) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(open, "open");
        return new AbsentStore() {
            @Override
            public PersistenceStorageProvider<CheckpointFilter> open(StorageSettings settings) {
                return open.apply(settings);
            }

            @Override
            public boolean exists() {
                return Files.exists(directory);
            }
        };
    }
}
