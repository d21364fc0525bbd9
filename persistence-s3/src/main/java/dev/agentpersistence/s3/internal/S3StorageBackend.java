package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.BackendContext;
import dev.agentpersistence.backend.CandidateScan;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Records as objects in an S3 bucket. The key layout (see the module's README) answers "latest" with two GETs (the
 * agent's {@link LatestPointer}, then the body it names), a lookup by id with two GETs, and filters from index key
 * names without reading bodies that cannot match. Inserts use {@code If-None-Match: *}, so two writers of one version
 * never both win. Node ids and metadata are hashed in the index keys, so the shell checks candidates of such filters
 * (it offers a {@link #candidateScan()}).
 */
public final class S3StorageBackend implements StorageBackend {
    private final S3Client client;
    private final boolean ownsClient;
    private final String description;
    private final CheckpointObjects store;
    private final CheckpointSaver saver;
    private final CheckpointQueries queries;
    private final CheckpointDeletions deletions;
    private final AgentDirectory agents;
    private final Segments segments;
    private final OverlappedRequests requests;
    private final S3Queues queues;

    /**
     * @param endpoint how messages name the store (no secrets)
     * @param maxDocumentSize the largest object read
     */
    public S3StorageBackend(
            S3Client client,
            boolean ownsClient,
            String bucket,
            String prefix,
            String endpoint,
            boolean conditionalWrites,
            boolean gzip,
            String description,
            BackendContext context) {
        Clock clock = context.clock();
        long maxDocumentSize = context.maxCheckpointSize();
        this.client = client;
        this.ownsClient = ownsClient;
        this.description = description;
        var objects = new S3Objects(client, bucket, endpoint, conditionalWrites, maxDocumentSize);
        if (context.readOnly()) {
            objects.requireBucket();
        }
        var layout = new KeyLayout(prefix);
        this.store = new CheckpointObjects(objects, layout, new BodyFormat(gzip), context.identities());
        this.requests = OverlappedRequests.pooled("agent-persistence-s3");
        this.saver = new CheckpointSaver(store, clock, requests);
        this.queries = new CheckpointQueries(store, requests, context.readOnly());
        this.deletions = new CheckpointDeletions(store);
        this.agents = new AgentDirectory(store);
        this.segments = new Segments(new SegmentObjects(objects, layout));
        this.queues = conditionalWrites
                ? new S3Queues(new QueueObjects(
                        new S3Objects(client, bucket, endpoint, true, queueObjectLimit(maxDocumentSize)),
                        layout,
                        requests,
                        clock))
                : null;
    }

    /**
     * The largest queue object read: the maximum checkpoint size bounds an item's body before the shell's layers wrap
     * it, so its object may hold a little more (the layers' and the item's headers).
     */
    private static long queueObjectLimit(long maxDocumentSize) {
        long slack = 64 * 1024;
        return maxDocumentSize > Long.MAX_VALUE - slack ? Long.MAX_VALUE : maxDocumentSize + slack;
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return saver.save(record);
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return queries.byId(agentId, checkpointId);
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        return queries.latest(agentId, filter.maxVersion());
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        return queries.list(agentId, filter.maxVersion(), filter.limit() == null ? Integer.MAX_VALUE : filter.limit());
    }

    @Override
    public Optional<CandidateScan> candidateScan() {
        return Optional.of(queries::candidates);
    }

    @Override
    public int deleteAll(String agentId) {
        return deletions.deleteAll(agentId);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return deletions.deleteBelow(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return agents.agents();
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    /**
     * Native queues ({@link S3Queues}) when conditional writes are on; without them no write can compare and set, so
     * pipelines keep their queues in a log of checkpoints.
     */
    @Override
    public Optional<QueueStore> queues() {
        return Optional.ofNullable(queues);
    }

    /** One {@code HeadBucket}. */
    @Override
    public void checkHealth() {
        store.objects().checkBucket();
    }

    @Override
    public String describe() {
        return "s3 at " + description;
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return description + ", checkpoint '" + checkpointId + "' of agent '" + agentId + "'";
    }

    /** Lets the request threads end, and closes the client when the backend built it. */
    @Override
    public void close() {
        requests.close();
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return description;
    }

    /** The segment objects under {@code P/h/} as the backend's segment area. */
    private static final class Segments implements HistorySegmentStore {
        private final SegmentObjects objects;

        Segments(SegmentObjects objects) {
            this.objects = objects;
        }

        /** One conditional PUT; a server-side copy onto itself when the segment exists. */
        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            objects.put(agentId, segmentId, content);
        }

        /** One GET per segment, none read beyond the maximum checkpoint size. */
        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            try {
                return objects.get(agentId, segmentIds);
            } catch (ObjectTooLargeException e) {
                throw new CorruptCheckpointException(agentId, null, e.location(), e.getMessage(), null);
            }
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return objects.list(agentId);
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return objects.delete(agentId, segmentIds, writtenBefore);
        }

        @Override
        public List<String> listSegmentAgents() {
            return objects.agents();
        }
    }
}
