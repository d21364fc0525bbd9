package dev.agentpersistence.inmemory;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.internal.AgentCheckpoints;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.StorageChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Keeps checkpoints in the heap of this instance; they are gone when it is closed or the JVM exits.
 * Thread-safe: reads take no lock, saves of one agent are serialized.
 *
 * <p>Per agent, checkpoints sit in a skip list keyed by version, so the latest checkpoint and
 * {@code maxVersion} ranges cost O(log n); a {@code limit} walks down from the newest match and stops
 * after {@code limit} matches; lookups by id use an index.
 *
 * <p>Checkpoints are kept as objects, not as encoded documents, so reads never parse. Callers still
 * cannot change what is stored: the only mutable parts of a checkpoint, JSON objects and arrays (in
 * {@code lastInput}, state values and tool call arguments), are deep-copied on save and on every
 * read; everything else is immutable and shared. A checkpoint without such nodes is returned as stored.
 */
public final class InMemoryStorageProvider implements PersistenceStorageProvider<CheckpointFilter> {
    private final ConcurrentSkipListMap<String, AgentCheckpoints> agents = new ConcurrentSkipListMap<>();
    private volatile boolean closed;

    /** An empty store. */
    public InMemoryStorageProvider() {
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        requireOpen();
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        while (!agents.computeIfAbsent(agentId, AgentCheckpoints::new).save(checkpoint)) {
            Thread.onSpinWait();
        }
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? List.of() : checkpoints.find(filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? Optional.empty() : checkpoints.latest(filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? Optional.empty() : checkpoints.get(checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        if (checkpoints == null) {
            return 0;
        }
        int count = checkpoints.deleteAll();
        agents.remove(agentId, checkpoints);
        return count;
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        if (checkpoints == null) {
            return 0;
        }
        int count = checkpoints.deleteBefore(version);
        if (checkpoints.isRetired()) {
            agents.remove(agentId, checkpoints);
        }
        return count;
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        var ids = new ArrayList<String>();
        agents.forEach((agentId, checkpoints) -> {
            if (!checkpoints.isEmpty()) {
                ids.add(agentId);
            }
        });
        return ids;
    }

    /** Drops every checkpoint; later calls throw {@link IllegalStateException}. Closing again does nothing. */
    @Override
    public void close() {
        closed = true;
        agents.clear();
    }

    private void requireOpen() {
        StorageChecks.requireOpen(closed, "InMemoryStorageProvider");
    }

    @Override
    public String toString() {
        return "InMemoryStorageProvider[agents=" + agents.size() + (closed ? ", closed" : "") + "]";
    }
}
