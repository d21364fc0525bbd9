package dev.agentpersistence.langchain4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.InMemoryStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProvider;

/** On the heap provider; "another process" shares the same instance, as a heap can only be shared so. */
class InMemoryChatMemoryStoreTest extends ChatMemoryStoreContract {
    private final InMemoryStorageProvider shared = new InMemoryStorageProvider();

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return new Unclosed(shared);
    }

    /** Shares the heap provider between "processes" without closing it early. */
    private record Unclosed(InMemoryStorageProvider delegate) implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public java.util.List<dev.agentpersistence.AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return delegate.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, dev.agentpersistence.AgentCheckpoint checkpoint) {
            delegate.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public java.util.Optional<dev.agentpersistence.AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return delegate.getLatestCheckpoint(agentId, filter);
        }

        @Override
        public java.util.Optional<dev.agentpersistence.AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
            return delegate.getCheckpoint(agentId, checkpointId);
        }

        @Override
        public int deleteCheckpoints(String agentId) {
            return delegate.deleteCheckpoints(agentId);
        }
    }
}
