package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;

/** The conformance kit against the file provider keeping new agents as one file per checkpoint. */
class FilePerCheckpointCompatibilityTest extends FileStorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return FilePerCheckpoint.provider(root);
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return FileStorage.builder(FilePerCheckpoint.config(root).build())
                .settings(settings)
                .build();
    }
}
