package dev.agentpersistence.metrics;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.internal.StorageChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A heap provider for the metrics tests that follows the save rules (unique version and id, identical re-save is a
 * no-op) and can be switched "down", like a backend that stopped answering.
 */
final class HeapStorage implements PersistenceStorageProvider<CheckpointFilter> {
    private final Map<String, TreeMap<Long, AgentCheckpoint>> agents = new TreeMap<>();
    private volatile boolean down;
    private volatile boolean closed;

    /** While down, every call throws {@link StorageUnavailableException}. */
    void down(boolean down) {
        this.down = down;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        check(agentId);
        var versions = agents.getOrDefault(agentId, new TreeMap<>());
        return (filter == null ? CheckpointFilter.ALL : filter).apply(new ArrayList<>(versions.values()));
    }

    @Override
    public synchronized void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        check(agentId);
        var versions = agents.computeIfAbsent(agentId, id -> new TreeMap<>());
        var sameVersion = versions.get(checkpoint.version());
        if (sameVersion != null) {
            StorageChecks.requireIdentical(agentId, checkpoint, sameVersion);
            return;
        }
        for (var stored : versions.values()) {
            if (stored.checkpointId().equals(checkpoint.checkpointId())) {
                throw CheckpointConflictException.of(agentId, checkpoint, stored);
            }
        }
        versions.put(checkpoint.version(), checkpoint);
    }

    @Override
    public synchronized Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        var all = getCheckpoints(agentId, filter);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    @Override
    public synchronized int deleteCheckpoints(String agentId) {
        check(agentId);
        var removed = agents.remove(agentId);
        return removed == null ? 0 : removed.size();
    }

    @Override
    public synchronized int deleteCheckpointsBefore(String agentId, long version) {
        check(agentId);
        var versions = agents.getOrDefault(agentId, new TreeMap<>());
        var below = versions.headMap(version, false);
        int count = below.size();
        below.clear();
        return count;
    }

    @Override
    public synchronized List<String> listAgents() {
        StorageChecks.requireOpen(closed, "HeapStorage");
        if (down) {
            throw new StorageUnavailableException(
                    "heap storage is down", new java.io.IOException("connection refused"));
        }
        return agents.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .toList();
    }

    @Override
    public void close() {
        closed = true;
    }

    private void check(String agentId) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireOpen(closed, "HeapStorage");
        if (down) {
            throw new StorageUnavailableException(
                    "heap storage is down", new java.io.IOException("connection refused"));
        }
    }
}
