package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.KitSettings;

/** The whole kit again with every layer on: checksum, compression, encryption and incremental history. */
class IndexedEveryLayerTest extends IndexedStorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(KitSettings.everyLayer());
    }
}
