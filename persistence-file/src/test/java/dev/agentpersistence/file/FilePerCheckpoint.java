package dev.agentpersistence.file;

import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;

/** Providers that keep new agents as one file per checkpoint, for the tests of that form. */
public final class FilePerCheckpoint {
    private FilePerCheckpoint() {}

    /** Settings for {@code root} writing one file per checkpoint. */
    public static FileStorageConfig.Builder config(Path root) {
        return FileStorageConfig.custom().directory(root).journal(false);
    }

    /** A provider over {@code root} writing one file per checkpoint. */
    public static StorageShell provider(Path root) {
        return FileStorage.builder(config(root).build()).build();
    }
}
