package dev.agentpersistence.file;

import dev.agentpersistence.file.internal.FileStorageBackend;
import dev.agentpersistence.file.internal.Fsync;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Stores checkpoints as files: one directory per agent under a root, holding the agent's journal (all its checkpoints
 * in one file; a save appends one record and forces it once) or, for agents created in that form, one file per
 * checkpoint named by its zero-padded version with an id index of hard links. {@link FileStorageConfig#journal()}
 * chooses the form of new agents; every provider reads both. The storage shell ({@link StorageShell}) over
 * {@code FileStorageBackend}: it reads every stored form and writes the one its {@link StorageSettings} choose (by
 * default those of discovery: checksums, compression from 4 KiB, incremental history in {@code <agent>/.segments/}).
 * Ids are encoded, so any valid id is safe. Saves are crash-safe and durable when they return; several providers — in
 * this process or others — may share one root. See the module README for the layouts and guarantees.
 *
 * <p>Versions, {@code maxVersion} and {@code limit} are answered from an index of the journal kept in memory (or from
 * the sorted directory listing and a small head file per agent, in the other form). {@code createdAt}, {@code nodeId},
 * metadata and tombstone filters are inside the documents: candidates are read newest first and reading stops once
 * {@code limit} matches are found. Thread-safe.
 */
public final class FileStorageProvider extends StorageShell {
    private final FileStorageConfig config;

    FileStorageProvider(FileStorageConfig config, Fsync fsync) {
        this(config, StorageSettings.ofDefaults(), fsync);
    }

    FileStorageProvider(FileStorageConfig config, StorageSettings settings, Fsync fsync) {
        super(
                new FileStorageBackend(
                        config.directory(),
                        fsync,
                        config.clock(),
                        config.tempFileGracePeriod(),
                        config.cleanUpOnOpen(),
                        settings.maxCheckpointSize(),
                        config.skipCorrupt() || settings.skipCorrupt(),
                        config.journal()),
                settings,
                config.clock());
        this.config = config;
    }

    /**
     * Opens the storage under {@code config.directory()} with {@link StorageSettings#ofDefaults()}, creating it when
     * missing and removing stale temporary files.
     *
     * @throws dev.agentpersistence.StorageConfigurationException when the directory is not one this process can create,
     *     read and write (permissions, a read-only file system, a regular file in the way); not transient, so not worth
     *     retrying
     * @throws dev.agentpersistence.StorageUnavailableException when it fails for another I/O reason
     */
    public static FileStorageProvider of(FileStorageConfig config) {
        return of(config, StorageSettings.ofDefaults());
    }

    /** As {@link #of(FileStorageConfig)}, writing with {@code settings}. */
    public static FileStorageProvider of(FileStorageConfig config, StorageSettings settings) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(settings, "settings");
        var effective = StorageSettings.from(settings).skipCorrupt(config.skipCorrupt() || settings.skipCorrupt());
        return new FileStorageProvider(config, effective.build(), config.fsync() ? Fsync.system() : Fsync.none());
    }

    /** Opens the storage under {@code directory} with default settings. */
    public static FileStorageProvider of(Path directory) {
        return of(FileStorageConfig.custom().directory(directory).build());
    }

    /** Opens the storage under {@code agent-checkpoints} in the working directory. */
    public static FileStorageProvider ofDefaults() {
        return of(FileStorageConfig.ofDefaults());
    }

    /** The settings this provider was opened with. */
    public FileStorageConfig config() {
        return config;
    }
}
