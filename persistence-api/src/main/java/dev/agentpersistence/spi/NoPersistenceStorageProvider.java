package dev.agentpersistence.spi;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.internal.StorageChecks;
import java.util.List;
import java.util.Optional;

/**
 * Stores nothing: saves are accepted and dropped, reads find nothing. The default when no storage module is on the
 * class path, so an agent runs unchanged without persistence. Arguments are still validated.
 */
public final class NoPersistenceStorageProvider implements PersistenceStorageProvider<CheckpointFilter> {

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        return List.of();
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        return Optional.empty();
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return Optional.empty();
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        StorageChecks.requireAgentId(agentId);
        return 0;
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        StorageChecks.requireAgentId(agentId);
        return 0;
    }

    @Override
    public List<String> listAgents() {
        return List.of();
    }

    @Override
    public String toString() {
        return "NoPersistenceStorageProvider";
    }
}
