package dev.agentpersistence;

import dev.agentpersistence.internal.StorageChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A small map-backed provider for unit tests of the facade (the real in-memory provider lives in a module that depends
 * on this one). Follows the save rules: unique version and id per agent, identical re-save is a no-op.
 * {@link #beforeSave} lets a test act as a concurrent writer.
 */
final class HeapTestStorage implements PersistenceStorageProvider<CheckpointFilter> {
    private final Map<String, TreeMap<Long, AgentCheckpoint>> agents = new ConcurrentHashMap<>();
    private volatile Consumer<AgentCheckpoint> beforeSave = cp -> {};
    private final AtomicInteger saveCalls = new AtomicInteger();
    private final AtomicInteger latestCalls = new AtomicInteger();

    /** Runs {@code hook} before each save is applied, outside the storage lock. */
    void beforeSave(Consumer<AgentCheckpoint> hook) {
        this.beforeSave = hook;
    }

    int saveCalls() {
        return saveCalls.get();
    }

    int latestCalls() {
        return latestCalls.get();
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        var versions = agents.get(agentId);
        if (versions == null) {
            return List.of();
        }
        synchronized (versions) {
            return (filter == null ? CheckpointFilter.ALL : filter).apply(new ArrayList<>(versions.values()));
        }
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        saveCalls.incrementAndGet();
        beforeSave.accept(checkpoint);
        var versions = agents.computeIfAbsent(agentId, id -> new TreeMap<>());
        synchronized (versions) {
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
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        latestCalls.incrementAndGet();
        var all = getCheckpoints(agentId, filter);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }
}
