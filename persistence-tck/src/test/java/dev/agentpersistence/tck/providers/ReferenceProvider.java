package dev.agentpersistence.tck.providers;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.StorageChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A deliberately simple, correct provider: one lock, encoded documents, filtering in the heap.
 * The kit must pass it; the broken providers extend it and change one thing each.
 */
public class ReferenceProvider implements PersistenceStorageProvider<CheckpointFilter> {
    protected final ReferenceStore store;
    protected final CheckpointCodec codec = CheckpointCodec.json();
    private volatile boolean closed;

    public ReferenceProvider(ReferenceStore store) {
        this.store = store;
    }

    protected void requireOpen() {
        StorageChecks.requireOpen(closed, getClass().getSimpleName());
    }

    protected AgentCheckpoint decode(String agentId, byte[] document) {
        return codec.decode(document, new CheckpointLocation(agentId, null, "reference store"));
    }

    /** Every checkpoint of the agent, ascending. */
    protected List<AgentCheckpoint> all(String agentId) {
        synchronized (store) {
            var result = new ArrayList<AgentCheckpoint>();
            var versions = store.agents.get(agentId);
            if (versions != null) {
                for (var document : versions.values()) {
                    result.add(decode(agentId, document));
                }
            }
            return result;
        }
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return (filter == null ? CheckpointFilter.ALL : filter).apply(all(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        var matches = getCheckpoints(agentId, filter);
        return matches.isEmpty() ? Optional.empty() : Optional.of(matches.get(matches.size() - 1));
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        requireOpen();
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        synchronized (store) {
            var existing = findConflict(agentId, checkpoint);
            if (existing.isPresent()) {
                StorageChecks.requireIdentical(agentId, checkpoint, existing.get());
                return;
            }
            store.agents.computeIfAbsent(agentId, a -> new TreeMap<>()).put(checkpoint.version(), codec.encode(checkpoint));
        }
    }

    /** The stored checkpoint with the same version or id, if any. */
    protected Optional<AgentCheckpoint> findConflict(String agentId, AgentCheckpoint checkpoint) {
        for (var stored : all(agentId)) {
            if (stored.version() == checkpoint.version() || stored.checkpointId().equals(checkpoint.checkpointId())) {
                return Optional.of(stored);
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return all(agentId).stream().filter(c -> c.checkpointId().equals(checkpointId)).findFirst();
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        synchronized (store) {
            var removed = store.agents.remove(agentId);
            return removed == null ? 0 : removed.size();
        }
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        synchronized (store) {
            var versions = store.agents.get(agentId);
            if (versions == null) {
                return 0;
            }
            var below = versions.headMap(version, false);
            int count = below.size();
            below.clear();
            if (versions.isEmpty()) {
                store.agents.remove(agentId);
            }
            return count;
        }
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        synchronized (store) {
            var ids = new ArrayList<>(store.agents.keySet());
            ids.sort(null);
            return ids;
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
