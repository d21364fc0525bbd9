package dev.agentpersistence.tck.providers;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import java.util.List;
import java.util.Optional;

/**
 * A correct custom provider that implements only the three abstract methods, as the SPI allows:
 * no deletion, no {@code listAgents}, no {@code close}. The kit must report those as unsupported
 * (aborted with the reason), never as passed or failed.
 */
public final class MinimalProvider implements PersistenceStorageProvider<CheckpointFilter> {
    private final ReferenceProvider delegate;

    public MinimalProvider(ReferenceStore store) {
        this.delegate = new ReferenceProvider(store);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        return delegate.getCheckpoints(agentId, filter);
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        delegate.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        return delegate.getLatestCheckpoint(agentId, filter);
    }
}
