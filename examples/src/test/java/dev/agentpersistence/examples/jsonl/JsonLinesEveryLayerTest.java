package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.KitSettings;

/** The whole kit again with every layer on: checksum, compression, encryption and incremental history. */
class JsonLinesEveryLayerTest extends JsonLinesStorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(KitSettings.everyLayer());
    }
}
