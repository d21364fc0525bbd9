package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.providers.ReferenceProvider;
import dev.agentpersistence.tck.providers.ReferenceStore;

/** The kit passes a correct provider whose instances share one store. */
class ReferenceProviderTest extends StorageProviderCompatibilityKit {
    private final ReferenceStore store = new ReferenceStore();

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return new ReferenceProvider(store);
    }
}
