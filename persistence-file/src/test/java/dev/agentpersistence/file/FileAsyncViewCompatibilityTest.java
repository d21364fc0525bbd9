package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.async.AsyncExecutor;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.AsyncViewProvider;
import dev.agentpersistence.tck.StorageDumps;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit through the async view ({@link dev.agentpersistence.async.AsyncStorageProvider}) of the file
 * provider: every call runs on a bounded {@link AsyncExecutor} and the kit waits for the futures, so the view must keep
 * every contract, typed exceptions and closed state included.
 */
class FileAsyncViewCompatibilityTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path root;

    private final AsyncExecutor executor = AsyncExecutor.create(8, 4096);

    @AfterEach
    void closeExecutor() {
        executor.close();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return AsyncViewProvider.over(
                FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                        .build(),
                executor);
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return AsyncViewProvider.over(
                FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                        .settings(settings)
                        .build(),
                executor);
    }

    @Override
    protected byte[] dumpStorage() {
        return StorageDumps.directory(root);
    }
}
