package dev.agentpersistence.tck.providers;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.codec.JsonLimits;
import dev.agentpersistence.internal.StorageChecks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately simple, correct provider: one lock over a shared {@link ReferenceStore}, filtering in the heap. The
 * kit must pass it; each broken provider extends it and changes one thing.
 */
public class ReferenceProvider implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    protected final ReferenceStore store;
    private volatile boolean closed;

    public ReferenceProvider(ReferenceStore store) {
        this.store = store;
    }

    protected void requireOpen() {
        StorageChecks.requireOpen(closed, getClass().getSimpleName());
    }

    /** The key the store files an agent under. */
    protected String key(String agentId) {
        return agentId;
    }

    /** Every checkpoint of the agent, ascending. */
    protected List<AgentCheckpoint> all(String agentId) {
        synchronized (store) {
            var versions = store.agents.get(key(agentId));
            return versions == null ? new ArrayList<>() : new ArrayList<>(versions.values());
        }
    }

    protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
        return filter.matches(checkpoint);
    }

    /** Keeps the {@code limit} newest of the ascending matches. */
    protected List<AgentCheckpoint> limit(CheckpointFilter filter, List<AgentCheckpoint> ascending) {
        if (filter.limit() == null || ascending.size() <= filter.limit()) {
            return ascending;
        }
        return new ArrayList<>(ascending.subList(ascending.size() - filter.limit(), ascending.size()));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var f = filter == null ? CheckpointFilter.ALL : filter;
        StorageChecks.requireWellFormedFilter(f);
        var matched = new ArrayList<AgentCheckpoint>();
        for (var checkpoint : all(agentId)) {
            if (matches(f, checkpoint)) {
                matched.add(checkpoint);
            }
        }
        return limit(f, matched);
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
        JsonLimits.check(checkpoint);
        synchronized (store) {
            var existing = findCollision(agentId, checkpoint);
            if (existing.isPresent()) {
                StorageChecks.requireIdentical(agentId, checkpoint, existing.get());
                return;
            }
            store(agentId, checkpoint);
        }
    }

    /** The stored checkpoint with the same version or id, if any. Called under the store's lock. */
    protected Optional<AgentCheckpoint> findCollision(String agentId, AgentCheckpoint checkpoint) {
        var versions = store.agents.get(key(agentId));
        if (versions == null) {
            return Optional.empty();
        }
        var atVersion = versions.get(checkpoint.version());
        if (atVersion != null) {
            return Optional.of(atVersion);
        }
        Long idVersion = store.ids.get(key(agentId)).get(checkpoint.checkpointId());
        return idVersion == null ? Optional.empty() : Optional.of(versions.get(idVersion));
    }

    /** Puts the checkpoint into the store. Called under the store's lock. */
    protected void store(String agentId, AgentCheckpoint checkpoint) {
        store.agents.computeIfAbsent(key(agentId), a -> new TreeMap<>()).put(checkpoint.version(), checkpoint);
        store.ids
                .computeIfAbsent(key(agentId), a -> new HashMap<>())
                .put(checkpoint.checkpointId(), checkpoint.version());
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return all(agentId).stream()
                .filter(c -> c.checkpointId().equals(checkpointId))
                .findFirst();
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        synchronized (store) {
            store.ids.remove(key(agentId));
            var removed = store.agents.remove(key(agentId));
            return removed == null ? 0 : removed.size();
        }
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        synchronized (store) {
            var versions = store.agents.get(key(agentId));
            if (versions == null) {
                return 0;
            }
            var below = versions.headMap(version, false);
            int count = below.size();
            below.values().forEach(c -> store.ids.get(key(agentId)).remove(c.checkpointId()));
            below.clear();
            if (versions.isEmpty()) {
                store.agents.remove(key(agentId));
                store.ids.remove(key(agentId));
            }
            return count;
        }
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        synchronized (store) {
            var ids = new ArrayList<String>();
            store.agents.forEach((agent, versions) -> {
                if (!versions.isEmpty()) {
                    ids.add(agent);
                }
            });
            ids.sort(null);
            return ids;
        }
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        synchronized (store) {
            var segments = store.segments.computeIfAbsent(agentId, a -> new TreeMap<>());
            var existing = segments.get(segmentId);
            segments.put(
                    segmentId,
                    new ReferenceStore.Segment(existing == null ? content.clone() : existing.content(), Instant.now()));
        }
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        synchronized (store) {
            var found = new HashMap<String, byte[]>();
            var segments = store.segments.getOrDefault(agentId, new TreeMap<>());
            for (String id : segmentIds) {
                var segment = segments.get(id);
                if (segment != null) {
                    found.put(id, segment.content().clone());
                }
            }
            return found;
        }
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        synchronized (store) {
            var infos = new ArrayList<SegmentInfo>();
            store.segments
                    .getOrDefault(agentId, new TreeMap<>())
                    .forEach((id, segment) -> infos.add(new SegmentInfo(id, segment.writtenAt())));
            return infos;
        }
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        synchronized (store) {
            var segments = store.segments.get(agentId);
            if (segments == null) {
                return 0;
            }
            int deleted = 0;
            for (String id : segmentIds) {
                var segment = segments.get(id);
                if (segment != null && segment.writtenAt().isBefore(writtenBefore)) {
                    segments.remove(id);
                    deleted++;
                }
            }
            if (segments.isEmpty()) {
                store.segments.remove(agentId);
            }
            return deleted;
        }
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen();
        synchronized (store) {
            return new ArrayList<>(new TreeSet<>(store.segments.keySet()));
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
