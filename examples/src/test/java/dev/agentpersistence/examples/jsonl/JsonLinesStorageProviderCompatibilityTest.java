package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.StorageDumps;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The conformance kit every provider passes, run against the custom JSON Lines backend under the storage shell. */
class JsonLinesStorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path directory;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(StorageSettings.ofDefaults());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return StorageShell.builder(new JsonLinesStorageBackend(directory, settings.maxCheckpointSize()))
                .settings(settings)
                .build();
    }

    @Override
    protected byte[] dumpStorage() {
        return StorageDumps.directory(directory);
    }
}
