package dev.agentpersistence.koog;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ForwardingStorageProvider;

/** On the heap provider; "reopening" hands out a view of the same heap that ignores close. */
class InMemoryAgentRunTest extends AgentRunContractTest {
    private final StorageShell shared = InMemoryStorage.builder().build();

    @Override
    protected PersistenceStorageProvider<?> openProvider() {
        return ForwardingStorageProvider.ignoringClose(shared);
    }
}
