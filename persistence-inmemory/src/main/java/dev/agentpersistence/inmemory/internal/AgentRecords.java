package dev.agentpersistence.inmemory.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.StorageChecks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The checkpoints of one agent: sorted by version in a skip list (latest and version ranges in
 * O(log n)), indexed by checkpoint id. Reads take no lock; writes lock this object. Once emptied by
 * a deletion the object is retired, and a save that finds it retired retries on a fresh one.
 */
public final class AgentCheckpoints {
    private final String agentId;
    private final ConcurrentSkipListMap<Long, StoredCheckpoint> byVersion = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<String, Long> versionById = new ConcurrentHashMap<>();
    private boolean retired;

    public AgentCheckpoints(String agentId) {
        this.agentId = agentId;
    }

    /** Whether the agent has no checkpoint. */
    public boolean isEmpty() {
        return byVersion.isEmpty();
    }

    /**
     * Saves {@code checkpoint} unless it collides: an identical stored checkpoint makes the save a
     * no-op, a different one throws {@link dev.agentpersistence.CheckpointConflictException}.
     *
     * @return {@code false} when this object was retired and the caller must retry on a fresh one
     */
    public synchronized boolean save(AgentCheckpoint checkpoint) {
        if (retired) {
            return false;
        }
        var atVersion = byVersion.get(checkpoint.version());
        if (atVersion != null) {
            StorageChecks.requireIdentical(agentId, checkpoint, atVersion.checkpoint());
            return true;
        }
        Long idVersion = versionById.get(checkpoint.checkpointId());
        if (idVersion != null) {
            StorageChecks.requireIdentical(agentId, checkpoint, byVersion.get(idVersion).checkpoint());
            return true;
        }
        byVersion.put(checkpoint.version(), StoredCheckpoint.of(checkpoint));
        versionById.put(checkpoint.checkpointId(), checkpoint.version());
        return true;
    }

    /** The matches ascending; with a limit, walks from the newest and stops after {@code limit} matches. */
    public List<AgentCheckpoint> find(CheckpointFilter filter) {
        var range = range(filter);
        Integer limit = filter.limit();
        var matches = new ArrayList<AgentCheckpoint>();
        if (limit == null) {
            for (StoredCheckpoint stored : range.values()) {
                if (filter.matches(stored.checkpoint())) {
                    matches.add(stored.read());
                }
            }
            return matches;
        }
        for (StoredCheckpoint stored : range.descendingMap().values()) {
            if (filter.matches(stored.checkpoint())) {
                matches.add(stored.read());
                if (matches.size() == limit) {
                    break;
                }
            }
        }
        Collections.reverse(matches);
        return matches;
    }

    /** The newest match, walking down from the highest version in range. */
    public Optional<AgentCheckpoint> latest(CheckpointFilter filter) {
        for (StoredCheckpoint stored : range(filter).descendingMap().values()) {
            if (filter.matches(stored.checkpoint())) {
                return Optional.of(stored.read());
            }
        }
        return Optional.empty();
    }

    /** One checkpoint by id. */
    public Optional<AgentCheckpoint> get(String checkpointId) {
        Long version = versionById.get(checkpointId);
        if (version == null) {
            return Optional.empty();
        }
        var stored = byVersion.get(version);
        return stored != null && stored.checkpointId().equals(checkpointId)
                ? Optional.of(stored.read())
                : Optional.empty();
    }

    /** Deletes every checkpoint and retires this object; returns how many there were. */
    public synchronized int deleteAll() {
        int count = byVersion.size();
        byVersion.clear();
        versionById.clear();
        retired = true;
        return count;
    }

    /** Deletes the versions strictly below {@code version}; retires this object when none remain. */
    public synchronized int deleteBefore(long version) {
        var below = byVersion.headMap(version, false);
        int count = 0;
        for (var entry : below.entrySet()) {
            versionById.remove(entry.getValue().checkpointId(), entry.getKey());
            count++;
        }
        below.clear();
        if (byVersion.isEmpty()) {
            retired = true;
        }
        return count;
    }

    /** Whether a deletion emptied this object for good. */
    public synchronized boolean isRetired() {
        return retired;
    }

    private NavigableMap<Long, StoredCheckpoint> range(CheckpointFilter filter) {
        return filter.maxVersion() == null ? byVersion : byVersion.headMap(filter.maxVersion(), true);
    }
}
