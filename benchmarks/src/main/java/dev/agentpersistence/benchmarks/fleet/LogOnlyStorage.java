package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.List;
import java.util.Optional;

/**
 * A provider that forwards every checkpoint call but offers no native queues, so that a pipeline over it keeps its
 * queue in the log of checkpoints: the queue of a provider without native queues, measured over the same store.
 */
final class LogOnlyStorage implements PersistenceStorageProvider<CheckpointFilter> {
    private final PersistenceStorageProvider<CheckpointFilter> delegate;

    LogOnlyStorage(PersistenceStorageProvider<CheckpointFilter> delegate) {
        this.delegate = delegate;
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        delegate.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        delegate.saveCheckpointAfter(agentId, expectedHead, checkpoint);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        return delegate.getLatestCheckpoint(agentId, filter);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        return delegate.getCheckpoints(agentId, filter);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return delegate.getCheckpoint(agentId, checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return delegate.deleteCheckpoints(agentId);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return delegate.deleteCheckpointsBefore(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return delegate.listAgents();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
