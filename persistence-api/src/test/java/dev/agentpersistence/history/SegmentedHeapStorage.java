package dev.agentpersistence.history;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.internal.StorageChecks;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A heap provider with the segment capability for unit tests of the history layer. Stores the JSON documents of
 * checkpoints (so tests can count bytes and tamper with them), counts calls, and can fail saves to act out a crash
 * between writing segments and writing the checkpoint.
 */
final class SegmentedHeapStorage implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    private record Segment(byte[] bytes, Instant writtenAt) {}

    private final CheckpointCodec codec = CheckpointCodec.json();
    private final Clock clock;
    private final Map<String, TreeMap<Long, byte[]>> documents = new HashMap<>();
    private final Map<String, Map<String, Long>> idIndex = new HashMap<>();
    private final Map<String, TreeMap<String, Segment>> segments = new HashMap<>();
    final AtomicInteger checkpointReads = new AtomicInteger();
    final AtomicInteger segmentReads = new AtomicInteger();
    final AtomicInteger segmentPuts = new AtomicInteger();
    final AtomicLong checkpointBytes = new AtomicLong();
    final AtomicLong segmentBytes = new AtomicLong();
    volatile boolean failSaves;
    private boolean closed;

    SegmentedHeapStorage(Clock clock) {
        this.clock = clock;
    }

    SegmentedHeapStorage() {
        this(Clock.systemUTC());
    }

    @Override
    public synchronized void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        if (failSaves) {
            throw new IllegalStateException("simulated crash before the checkpoint was written");
        }
        var versions = documents.computeIfAbsent(agentId, a -> new TreeMap<>());
        byte[] atVersion = versions.get(checkpoint.version());
        if (atVersion != null) {
            StorageChecks.requireIdentical(agentId, checkpoint, decode(agentId, atVersion));
            return;
        }
        var ids = idIndex.computeIfAbsent(agentId, a -> new HashMap<>());
        Long idVersion = ids.get(checkpoint.checkpointId());
        if (idVersion != null && versions.containsKey(idVersion)) {
            throw CheckpointConflictException.of(agentId, checkpoint, decode(agentId, versions.get(idVersion)));
        }
        byte[] document = codec.encode(checkpoint);
        checkpointBytes.addAndGet(document.length);
        versions.put(checkpoint.version(), document);
        ids.put(checkpoint.checkpointId(), checkpoint.version());
    }

    @Override
    public synchronized List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        StorageChecks.requireAgentId(agentId);
        checkpointReads.incrementAndGet();
        var all = new ArrayList<AgentCheckpoint>();
        for (byte[] document : documents.getOrDefault(agentId, new TreeMap<>()).values()) {
            all.add(decode(agentId, document));
        }
        return (filter == null ? CheckpointFilter.ALL : filter).apply(all);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        var all = getCheckpoints(agentId, filter);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    @Override
    public synchronized int deleteCheckpoints(String agentId) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        idIndex.remove(agentId);
        var removed = documents.remove(agentId);
        return removed == null ? 0 : removed.size();
    }

    @Override
    public synchronized int deleteCheckpointsBefore(String agentId, long version) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        var versions = documents.get(agentId);
        if (versions == null) {
            return 0;
        }
        var below = versions.headMap(version);
        int count = below.size();
        below.clear();
        return count;
    }

    @Override
    public synchronized List<String> listAgents() {
        var agents = new ArrayList<String>();
        documents.forEach((agent, versions) -> {
            if (!versions.isEmpty()) {
                agents.add(agent);
            }
        });
        agents.sort(null);
        return agents;
    }

    @Override
    public synchronized void putSegment(String agentId, String segmentId, byte[] content) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        segmentPuts.incrementAndGet();
        var agent = segments.computeIfAbsent(agentId, a -> new TreeMap<>());
        Segment existing = agent.get(segmentId);
        if (existing == null) {
            segmentBytes.addAndGet(content.length);
        }
        agent.put(segmentId, new Segment(existing == null ? content.clone() : existing.bytes(), clock.instant()));
    }

    @Override
    public synchronized Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        StorageChecks.requireOpen(closed, "SegmentedHeapStorage");
        segmentReads.incrementAndGet();
        var found = new HashMap<String, byte[]>();
        var agent = segments.getOrDefault(agentId, new TreeMap<>());
        for (String id : segmentIds) {
            Segment segment = agent.get(id);
            if (segment != null) {
                found.put(id, segment.bytes().clone());
            }
        }
        return found;
    }

    @Override
    public synchronized List<SegmentInfo> listSegments(String agentId) {
        var infos = new ArrayList<SegmentInfo>();
        segments.getOrDefault(agentId, new TreeMap<>())
                .forEach((id, s) -> infos.add(new SegmentInfo(id, s.writtenAt())));
        return infos;
    }

    @Override
    public synchronized int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        var agent = segments.get(agentId);
        int deleted = 0;
        if (agent != null) {
            for (String id : segmentIds) {
                Segment segment = agent.get(id);
                if (segment != null && segment.writtenAt().isBefore(writtenBefore)) {
                    agent.remove(id);
                    deleted++;
                }
            }
            if (agent.isEmpty()) {
                segments.remove(agentId);
            }
        }
        return deleted;
    }

    @Override
    public synchronized List<String> listSegmentAgents() {
        return new ArrayList<>(new java.util.TreeSet<>(segments.keySet()));
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    /** Replaces the stored bytes of a segment (simulated corruption). */
    synchronized void tamperSegment(String agentId, String segmentId, byte[] bytes) {
        segments.get(agentId).put(segmentId, new Segment(bytes, clock.instant()));
    }

    /** Removes a segment behind the layer's back. */
    synchronized void dropSegment(String agentId, String segmentId) {
        segments.get(agentId).remove(segmentId);
    }

    /** Replaces the stored document of a version. */
    synchronized void replaceDocument(String agentId, long version, AgentCheckpoint stored) {
        documents.get(agentId).put(version, codec.encode(stored));
    }

    /** The stored (not reassembled) checkpoint of a version. */
    synchronized AgentCheckpoint stored(String agentId, long version) {
        return decode(agentId, documents.get(agentId).get(version));
    }

    synchronized int segmentCount(String agentId) {
        return segments.getOrDefault(agentId, new TreeMap<>()).size();
    }

    @Override
    public String toString() {
        return "SegmentedHeapStorage";
    }

    private AgentCheckpoint decode(String agentId, byte[] document) {
        return codec.decode(document, new CheckpointLocation(agentId, null, "heap"));
    }
}
