package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.AgentSummaryScan;
import dev.agentpersistence.backend.CandidateScan;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A storage backend that forwards every call to another and counts each one that reaches the store, in
 * {@link BackendCalls}: the record operations, {@code checkHealth}, the history segment operations and the optional
 * scans and expiry ({@code candidates}, {@code summaries}, {@code deleteExpired}). The optional capabilities stay what
 * the other backend offers, wrapped alike; the capability getters, {@code location}, {@code describe} and {@code close}
 * touch no store and are not counted. A call is one call of the interface: a backend may make more than one request to
 * its store inside it.
 */
final class CountingBackend implements StorageBackend {
    private final StorageBackend backend;
    private final BackendCalls calls;
    private final Optional<HistorySegmentStore> segments;
    private final boolean closes;

    CountingBackend(StorageBackend backend, BackendCalls calls) {
        this(backend, calls, true);
    }

    /** @param closes whether {@link #close()} closes {@code backend} (not for one its writer still uses) */
    CountingBackend(StorageBackend backend, BackendCalls calls, boolean closes) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.segments = backend.segments().map(CountingSegments::new);
        this.closes = closes;
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        calls.count("insert");
        return backend.insert(record);
    }

    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> segments) {
        calls.count("insertAfter");
        return backend.insertAfter(expected, record, segments);
    }

    @Override
    public List<InsertResult> insertAll(List<StoredCheckpoint> records) {
        calls.count("insertAll");
        return backend.insertAll(records);
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        calls.count("find");
        return backend.find(agentId, checkpointId);
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        calls.count("latest");
        return backend.latest(agentId, filter);
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        calls.count("list");
        return backend.list(agentId, filter);
    }

    @Override
    public int deleteAll(String agentId) {
        calls.count("deleteAll");
        return backend.deleteAll(agentId);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        calls.count("deleteBefore");
        return backend.deleteBefore(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        calls.count("listAgents");
        return backend.listAgents();
    }

    @Override
    public Optional<Expiry> expiry() {
        return backend.expiry().map(expiry -> now -> {
            calls.count("deleteExpired");
            return expiry.deleteExpired(now);
        });
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return segments;
    }

    @Override
    public Optional<QueueStore> queues() {
        return backend.queues();
    }

    @Override
    public Optional<CandidateScan> candidateScan() {
        return backend.candidateScan().map(scan -> (agentId, filter) -> {
            calls.count("candidates");
            return scan.candidates(agentId, filter);
        });
    }

    @Override
    public Optional<AgentSummaryScan> agentSummaries() {
        return backend.agentSummaries().map(scan -> () -> {
            calls.count("summaries");
            return scan.summaries();
        });
    }

    @Override
    public void checkHealth() {
        calls.count("checkHealth");
        backend.checkHealth();
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return backend.location(agentId, checkpointId);
    }

    @Override
    public String describe() {
        return backend.describe();
    }

    @Override
    public void close() {
        if (closes) {
            backend.close();
        }
    }

    @Override
    public String toString() {
        return backend.toString();
    }

    /** The segment area of the backend, counted alike. */
    private final class CountingSegments implements HistorySegmentStore {
        private final HistorySegmentStore store;

        CountingSegments(HistorySegmentStore store) {
            this.store = store;
        }

        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            calls.count("putSegment");
            store.putSegment(agentId, segmentId, content);
        }

        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            calls.count("getSegments");
            return store.getSegments(agentId, segmentIds);
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            calls.count("listSegments");
            return store.listSegments(agentId);
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            calls.count("deleteSegments");
            return store.deleteSegments(agentId, segmentIds, writtenBefore);
        }

        @Override
        public List<String> listSegmentAgents() {
            calls.count("listSegmentAgents");
            return store.listSegmentAgents();
        }

        @Override
        public String toString() {
            return store.toString();
        }
    }
}
