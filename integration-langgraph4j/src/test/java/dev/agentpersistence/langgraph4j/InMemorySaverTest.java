package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.InMemoryStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProvider;

class InMemorySaverTest extends SaverContractTest {
    private final InMemoryStorageProvider shared = new InMemoryStorageProvider();

    /** The heap store has no second handle: "reopening" hands out a view that ignores close. */
    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return new PersistenceStorageProvider<>() {
            @Override
            public java.util.List<dev.agentpersistence.AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
                return shared.getCheckpoints(agentId, filter);
            }

            @Override
            public void saveCheckpoint(String agentId, dev.agentpersistence.AgentCheckpoint checkpoint) {
                shared.saveCheckpoint(agentId, checkpoint);
            }

            @Override
            public java.util.Optional<dev.agentpersistence.AgentCheckpoint> getLatestCheckpoint(String agentId,
                                                                                             CheckpointFilter filter) {
                return shared.getLatestCheckpoint(agentId, filter);
            }

            @Override
            public int deleteCheckpoints(String agentId) {
                return shared.deleteCheckpoints(agentId);
            }
        };
    }
}
