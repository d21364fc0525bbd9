package dev.agentpersistence.inmemory.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records in the heap of this instance: per agent a skip list by version and an id index ({@link AgentRecords}), plus a
 * segment area. Stored bytes are immutable once inserted (the shell never hands them out), so records are shared, not
 * copied: reads hand back the very arrays the shell inserted (which lets the shell recognise a record it decoded by the
 * identity of its array). Several shells may use one backend ({@link #share()}); its records are dropped when the last
 * of them closes.
 */
public final class InMemoryStorageBackend implements StorageBackend {
    private final ConcurrentSkipListMap<String, AgentRecords> agents = new ConcurrentSkipListMap<>();
    private final InMemorySegments segments;
    private final InMemoryQueues queues = new InMemoryQueues();
    private final AtomicInteger shells = new AtomicInteger(1);

    public InMemoryStorageBackend(Clock clock) {
        this.segments = new InMemorySegments(clock);
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        while (true) {
            List<StoredDocument> clashing = agents.computeIfAbsent(record.agentId(), a -> new AgentRecords())
                    .insert(record);
            if (clashing != null) {
                return clashing.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clashing);
            }
            Thread.onSpinWait();
        }
    }

    /** The check and the insert under the agent's lock. */
    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> logEntries) {
        logEntries.forEach((id, content) -> segments.putSegment(record.agentId(), id, content));
        while (true) {
            InsertResult result = agents.computeIfAbsent(record.agentId(), a -> new AgentRecords())
                    .insertAfter(expected, record);
            if (result != null) {
                return result;
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        var records = agents.get(agentId);
        return records == null ? Optional.empty() : records.get(checkpointId);
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        var records = agents.get(agentId);
        return records == null ? Optional.empty() : records.latest(filter);
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        var records = agents.get(agentId);
        return records == null ? List.of() : records.find(filter);
    }

    @Override
    public int deleteAll(String agentId) {
        var records = agents.get(agentId);
        if (records == null) {
            return 0;
        }
        int count = records.deleteAll();
        agents.remove(agentId, records);
        return count;
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        var records = agents.get(agentId);
        if (records == null) {
            return 0;
        }
        int count = records.deleteBefore(version);
        if (records.isRetired()) {
            agents.remove(agentId, records);
        }
        return count;
    }

    @Override
    public List<String> listAgents() {
        var ids = new ArrayList<String>();
        agents.forEach((agentId, records) -> {
            if (!records.isEmpty()) {
                ids.add(agentId);
            }
        });
        return ids;
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    @Override
    public Optional<QueueStore> queues() {
        return Optional.of(queues);
    }

    /** Nothing to reach: the heap is always there. */
    @Override
    public void checkHealth() {}

    @Override
    public String describe() {
        return "the heap of this JVM";
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return "heap record '" + checkpointId + "' of agent '" + agentId + "'";
    }

    /** This backend for one more shell (for example one writing with other settings); returns it. */
    public InMemoryStorageBackend share() {
        shells.incrementAndGet();
        return this;
    }

    /** Called by each closing shell; drops every record and segment when the last one closes. */
    @Override
    public void close() {
        if (shells.decrementAndGet() == 0) {
            agents.clear();
            segments.clear();
        }
    }

    @Override
    public String toString() {
        return "heap, " + agents.size() + " agents";
    }
}
