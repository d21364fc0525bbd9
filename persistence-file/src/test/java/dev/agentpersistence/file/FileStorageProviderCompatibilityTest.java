package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.AbsentStore;
import dev.agentpersistence.tck.StorageDumps;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The conformance kit against the file provider as discovery builds it (new agents kept as a journal, fsync on). */
class FileStorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path root;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                .build();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                .settings(settings)
                .build();
    }

    @Override
    protected byte[] dumpStorage() {
        return StorageDumps.directory(root);
    }

    @Override
    protected AbsentStore absentStore() {
        Path absent = root.resolve("absent").resolve("checkpoints");
        return AbsentStore.inDirectory(
                absent.getParent(),
                settings -> FileStorage.builder(absent).settings(settings).build());
    }
}
