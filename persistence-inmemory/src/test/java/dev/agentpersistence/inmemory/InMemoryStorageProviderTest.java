package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.time.Clock;

/**
 * The in-memory provider passes the conformance kit; its instances do not share storage, so the
 * read matrix runs on shells over one backend per test.
 */
class InMemoryStorageProviderTest extends StorageProviderCompatibilityKit {
    private InMemoryStorageBackend shared;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return new InMemoryStorageProvider();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        if (shared == null) {
            shared = new InMemoryStorageBackend(Clock.systemUTC());
        }
        return StorageShell.builder(shared).settings(settings).build();
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }
}
