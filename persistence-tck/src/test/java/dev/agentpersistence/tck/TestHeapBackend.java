package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
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
 * A small heap backend with a segment area for the kit's own tests; filters in the heap, which only test code may do.
 */
final class TestHeapBackend implements StorageBackend, HistorySegmentStore {
    final Map<String, TreeMap<Long, StoredCheckpoint>> records = new HashMap<>();
    final Map<String, Map<String, byte[]>> segments = new HashMap<>();
    final TestHeapQueues queues;
    private final boolean withSegments;
    private final boolean expiry;

    TestHeapBackend() {
        this(true, false);
    }

    TestHeapBackend(boolean withSegments, boolean expiry) {
        this(withSegments, expiry, new TestHeapQueues(true));
    }

    TestHeapBackend(boolean withSegments, boolean expiry, TestHeapQueues queues) {
        this.withSegments = withSegments;
        this.expiry = expiry;
        this.queues = queues;
    }

    @Override
    public Optional<QueueStore> queues() {
        return Optional.of(queues);
    }

    @Override
    public synchronized InsertResult insert(StoredCheckpoint record) {
        var agent = records.computeIfAbsent(record.agentId(), a -> new TreeMap<>());
        var clash = new ArrayList<StoredDocument>();
        for (StoredCheckpoint stored : agent.values()) {
            if (stored.version() == record.version() || stored.checkpointId().equals(record.checkpointId())) {
                clash.add(stored.toDocument());
            }
        }
        if (!clash.isEmpty()) {
            return InsertResult.clashedWith(clash);
        }
        agent.put(record.version(), record);
        return InsertResult.stored();
    }

    /** Replaces the stored bytes of one record, as an attacker with access to the store could. */
    synchronized void tamper(String agentId, long version, byte[] document) {
        var agent = records.get(agentId);
        agent.put(version, agent.get(version).withDocument(document));
    }

    @Override
    public synchronized Optional<StoredDocument> find(String agentId, String checkpointId) {
        return records.getOrDefault(agentId, new TreeMap<>()).values().stream()
                .filter(r -> r.checkpointId().equals(checkpointId))
                .findFirst()
                .map(StoredCheckpoint::toDocument);
    }

    @Override
    public synchronized Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        var all = matching(agentId, filter);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    @Override
    public synchronized List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        var all = matching(agentId, filter);
        return filter.limit() == null ? all : all.subList(Math.max(0, all.size() - filter.limit()), all.size());
    }

    private List<StoredDocument> matching(String agentId, CheckpointFilter filter) {
        var result = new ArrayList<StoredDocument>();
        for (StoredCheckpoint r : records.getOrDefault(agentId, new TreeMap<>()).values()) {
            if (r.matches(filter)) {
                result.add(r.toDocument());
            }
        }
        return result;
    }

    @Override
    public synchronized int deleteAll(String agentId) {
        var removed = records.remove(agentId);
        return removed == null ? 0 : removed.size();
    }

    @Override
    public synchronized int deleteBefore(String agentId, long version) {
        var agent = records.getOrDefault(agentId, new TreeMap<>());
        var head = agent.headMap(version);
        int count = head.size();
        head.clear();
        return count;
    }

    @Override
    public synchronized List<String> listAgents() {
        var agents = new TreeSet<String>();
        records.forEach((agent, versions) -> {
            if (!versions.isEmpty()) {
                agents.add(agent);
            }
        });
        return List.copyOf(agents);
    }

    @Override
    public Optional<Expiry> expiry() {
        return expiry ? Optional.of(this::deleteExpired) : Optional.empty();
    }

    private synchronized int deleteExpired(Instant now) {
        int count = 0;
        for (var agent : records.values()) {
            var it = agent.values().iterator();
            while (it.hasNext()) {
                var r = it.next();
                if (r.expiresAt() != null && r.expiresAt().isBefore(now)) {
                    it.remove();
                    count++;
                }
            }
        }
        return count;
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return withSegments ? Optional.of(this) : Optional.empty();
    }

    @Override
    public void checkHealth() {}

    @Override
    public String location(String agentId, String checkpointId) {
        return "heap record " + agentId + "/" + checkpointId;
    }

    @Override
    public void close() {}

    @Override
    public synchronized void putSegment(String agentId, String segmentId, byte[] content) {
        segments.computeIfAbsent(agentId, a -> new HashMap<>()).putIfAbsent(segmentId, content);
    }

    @Override
    public synchronized Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        var found = new HashMap<String, byte[]>();
        var agent = segments.getOrDefault(agentId, Map.of());
        for (String id : segmentIds) {
            if (agent.containsKey(id)) {
                found.put(id, agent.get(id));
            }
        }
        return found;
    }

    @Override
    public synchronized List<SegmentInfo> listSegments(String agentId) {
        var infos = new ArrayList<SegmentInfo>();
        new TreeSet<>(segments.getOrDefault(agentId, Map.of()).keySet())
                .forEach(id -> infos.add(new SegmentInfo(id, Instant.EPOCH)));
        return infos;
    }

    @Override
    public synchronized int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        int count = 0;
        var agent = segments.getOrDefault(agentId, new HashMap<>());
        for (String id : segmentIds) {
            if (agent.remove(id) != null) {
                count++;
            }
        }
        return count;
    }

    @Override
    public synchronized List<String> listSegmentAgents() {
        return List.copyOf(new TreeSet<>(segments.keySet()));
    }
}
