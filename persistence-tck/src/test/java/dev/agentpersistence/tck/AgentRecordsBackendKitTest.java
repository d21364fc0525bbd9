package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;

/** The whole kit, read matrix included, on shells over {@code AgentRecordsBackend}s sharing one heap store. */
class AgentRecordsBackendKitTest extends StorageProviderCompatibilityKit {
    private final HeapRecordsBackend.Store store = new HeapRecordsBackend.Store();

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(StorageSettings.ofDefaults());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return StorageShell.builder(new HeapRecordsBackend(store, Clock.systemUTC()))
                .settings(settings)
                .build();
    }

    @Override
    protected byte[] dumpStorage() {
        return store.dump();
    }
}
