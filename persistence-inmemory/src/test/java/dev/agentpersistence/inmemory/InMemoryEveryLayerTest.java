package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.KitSettings;
import java.time.Clock;

/**
 * The in-memory provider passes the kit again writing with every layer: checksum, compression, encryption, incremental
 * history.
 */
class InMemoryEveryLayerTest extends InMemoryStorageProviderTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return StorageShell.builder(backend())
                .settings(KitSettings.everyLayer())
                .clock(Clock.systemUTC())
                .build();
    }
}
