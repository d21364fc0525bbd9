package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ForwardingStorageProvider;

class InMemorySaverTest extends SaverContractTest {
    private final StorageShell shared = InMemoryStorage.builder().build();

    /** The heap store has no second handle: "reopening" hands out a view that ignores close. */
    @Override
    public PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return ForwardingStorageProvider.ignoringClose(shared);
    }
}
