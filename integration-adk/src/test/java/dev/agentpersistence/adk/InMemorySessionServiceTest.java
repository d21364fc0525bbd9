package dev.agentpersistence.adk;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;

/** On the heap provider (the concurrency scenario shares one provider between the two services). */
class InMemorySessionServiceTest extends StoredSessionContract {
    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return InMemoryStorage.builder().build();
    }

    @Override
    protected boolean reopenable() {
        return false;
    }
}
