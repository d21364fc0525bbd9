package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;

/** The in-memory provider passes the conformance kit with incremental message histories. */
class InMemoryIncrementalHistoryTest extends StorageProviderCompatibilityKit {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return new InMemoryStorageProvider().withIncrementalHistory();
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }
}
