package dev.agentpersistence.file;

import dev.agentpersistence.file.internal.FileStorageBackend;
import dev.agentpersistence.file.internal.Fsync;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Entry point of the file provider: checkpoints as files, one directory per agent under a root, holding the agent's
 * journal (all its checkpoints in one file; a save appends one record and forces it once) or, for agents created in
 * that form, one file per checkpoint named by its zero-padded version with an id index of hard links.
 * {@link FileStorageConfig#journal()} chooses the form of new agents; every provider reads both. Each method returns
 * the shell's builder over the file backend; {@code build()} opens the directory and gives the provider.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage = FileStorage.builder(Path.of("checkpoints")).build();
 * }</pre>
 *
 * <p>Ids are encoded, so any valid id is safe. Saves are crash-safe and durable when they return; several providers —
 * in this process or others — may share one root. Versions, {@code maxVersion} and {@code limit} are answered from an
 * index of the journal kept in memory (or from the sorted directory listing and a small head file per agent, in the
 * other form); {@code createdAt}, {@code nodeId}, metadata and tombstone filters are inside the documents: candidates
 * are read newest first and reading stops once {@code limit} matches are found. See the module README for the layouts
 * and guarantees. Thread-safe.
 *
 * <p>{@code build()} throws {@link dev.agentpersistence.StorageConfigurationException} when the directory is not one
 * this process can create, read and write (permissions, a read-only file system, a regular file in the way; not worth
 * retrying), and {@link dev.agentpersistence.StorageUnavailableException} when it fails for another I/O reason.
 */
public final class FileStorage {
    private FileStorage() {}

    /** A provider over the root {@code config.directory()}, created when missing. */
    public static StorageShell.Builder builder(FileStorageConfig config) {
        Objects.requireNonNull(config, "config");
        return builder(config, config.fsync() ? Fsync.system() : Fsync.none());
    }

    /** A provider over the root {@code directory} with the default file settings. */
    public static StorageShell.Builder builder(Path directory) {
        return builder(FileStorageConfig.custom().directory(directory).build());
    }

    /** As {@link #builder(FileStorageConfig)}, forcing through {@code fsync} (tests count the forces). */
    static StorageShell.Builder builder(FileStorageConfig config, Fsync fsync) {
        return StorageShell.builder(context -> new FileStorageBackend(
                config.directory(),
                fsync,
                config.tempFileGracePeriod(),
                config.cleanUpOnOpen(),
                config.journal(),
                context));
    }
}
