package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;

/** The kit again over the heap {@code AgentRecordsBackend}, writing with every layer and incremental history. */
class AgentRecordsBackendEveryLayerTest extends AgentRecordsBackendKitTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(KitSettings.everyLayer());
    }
}
