package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.StorageDumps;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The conformance kit every provider passes, run against the example indexed backend under the storage shell. */
class IndexedStorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path directory;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(StorageSettings.ofDefaults());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        String url = "jdbc:h2:file:" + directory.resolve("checkpoints");
        return StorageShell.builder(
                        context -> new IndexedStorageBackend(url, context.clock(), context.maxCheckpointSize()))
                .settings(settings)
                .build();
    }

    @Override
    protected byte[] dumpStorage() {
        return StorageDumps.directory(directory);
    }
}
