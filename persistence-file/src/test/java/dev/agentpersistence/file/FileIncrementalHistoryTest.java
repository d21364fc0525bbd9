package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The conformance kit against the file provider with incremental message histories, fsync on. */
class FileIncrementalHistoryTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path root;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return FileStorageProvider.of(FileStorageConfig.custom().directory(root).build()).withIncrementalHistory();
    }
}
