package dev.agentpersistence.langchain4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ForwardingStorageProvider;

/** On the heap provider; "another process" shares the same instance, as a heap can only be shared so. */
class InMemoryChatMemoryStoreTest extends ChatMemoryStoreContract {
    private final StorageShell shared = InMemoryStorage.builder().build();

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return ForwardingStorageProvider.ignoringClose(shared);
    }
}
