package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;

/** The in-memory provider passes the conformance kit; its instances do not share storage. */
class InMemoryStorageProviderTest extends StorageProviderCompatibilityKit {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return new InMemoryStorageProvider();
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }
}
