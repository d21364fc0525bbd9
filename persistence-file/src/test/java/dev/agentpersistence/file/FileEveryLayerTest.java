package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.KitSettings;

/**
 * The conformance kit against the file provider writing with every layer (checksum, compression, encryption,
 * incremental history).
 */
class FileEveryLayerTest extends FileStorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                .settings(KitSettings.everyLayer())
                .build();
    }
}
