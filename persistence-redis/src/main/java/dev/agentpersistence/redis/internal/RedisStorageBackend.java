package dev.agentpersistence.redis.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.UnifiedJedis;

/**
 * Records in Redis, standalone or Redis Cluster: each agent's keys share one hash tag, so an agent lives in one slot
 * and every insert is a single Lua script (conflict detection and every index update in one atomic step). Filters run
 * on the server against sorted-set indexes and small attribute records; only matching bodies travel, none longer than
 * the maximum checkpoint size. Records with an expiry time expire with their agent's keys (Redis removes them itself).
 * Jedis failures become {@link dev.agentpersistence.StorageUnavailableException} naming the endpoint.
 */
public final class RedisStorageBackend implements StorageBackend {
    private final UnifiedJedis client;
    private final boolean ownsClient;
    private final CheckpointScripts scripts;
    private final Segments segments;
    private final SegmentStore segmentStore;
    private final boolean cluster;
    private final Clock clock;
    private final RedisErrors errors;
    private final String description;
    private final RedisQueues queues;

    /**
     * @param ttl the lifetime of an agent's segment keys, or {@code null}; checkpoint keys follow each record's expiry
     *     time
     */
    public RedisStorageBackend(
            UnifiedJedis client,
            boolean ownsClient,
            boolean cluster,
            String keyPrefix,
            Duration ttl,
            Clock clock,
            long maxDocumentSize,
            RedisErrors errors) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.errors = errors;
        var keys = new RedisKeys(keyPrefix);
        this.scripts = new CheckpointScripts(client, keys, cluster, clock, maxDocumentSize, errors.endpoint());
        this.segmentStore = new SegmentStore(client, keys, ttl);
        this.segments = new Segments(segmentStore, clock);
        this.cluster = cluster;
        this.clock = clock;
        this.description = errors.endpoint() + ", keyPrefix '" + keyPrefix + "'" + (cluster ? ", cluster" : "");
        this.queues = new RedisQueues(client, keys, errors);
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return save(record, Map.of(), null);
    }

    /**
     * In standalone mode one MULTI: the segments as plain commands, then the save script, so a save of a history in the
     * message log is one round trip; in cluster mode the segments are put first, then the record is saved.
     */
    @Override
    public InsertResult insert(StoredCheckpoint record, Map<String, byte[]> contents) {
        return save(record, contents, null);
    }

    /** As {@link #insert(StoredCheckpoint, Map)}; the save script checks the head before it writes anything. */
    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> contents) {
        return save(record, contents, Objects.requireNonNull(expected, "expected"));
    }

    /** {@code expected}: {@code null} for a plain insert. */
    private InsertResult save(StoredCheckpoint record, Map<String, byte[]> contents, Optional<ExpectedHead> expected) {
        if (!contents.isEmpty() && cluster) {
            contents.forEach((id, content) -> segments.putSegment(record.agentId(), id, content));
        }
        Consumer<AbstractTransaction> first = contents.isEmpty() || cluster
                ? null
                : transaction -> segmentStore.queuePut(transaction, record.agentId(), contents, clock.instant());
        return run("saveCheckpoint of agent '" + record.agentId() + "'", () -> scripts.save(record, first, expected));
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return run("getCheckpoint of agent '" + agentId + "'", () -> scripts.get(agentId, checkpointId));
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        List<StoredDocument> latest =
                run("getLatestCheckpoint of agent '" + agentId + "'", () -> scripts.query(agentId, filter, true));
        return latest.isEmpty() ? Optional.empty() : Optional.of(latest.get(latest.size() - 1));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        return run("getCheckpoints of agent '" + agentId + "'", () -> scripts.query(agentId, filter, false));
    }

    @Override
    public int deleteAll(String agentId) {
        return run("deleteCheckpoints of agent '" + agentId + "'", () -> scripts.delete(agentId));
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return run("deleteCheckpointsBefore of agent '" + agentId + "'", () -> scripts.deleteBefore(agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return run("listAgents", scripts::listAgents);
    }

    /** Keys get the time to live of the record saved last; Redis removes expired keys itself. */
    @Override
    public Optional<Expiry> expiry() {
        return Optional.of(now -> 0);
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    @Override
    public Optional<QueueStore> queues() {
        return Optional.of(queues);
    }

    /** {@code PING}. */
    @Override
    public void checkHealth() {
        run("checkHealth", client::ping);
    }

    @Override
    public String describe() {
        return "redis at " + description;
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return errors.endpoint() + ", checkpoint '" + checkpointId + "' of agent '" + agentId + "'";
    }

    /** Closes the connections the backend opened; a client handed to the builder stays open. */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return description;
    }

    private <T> T run(String operation, Supplier<T> action) {
        return errors.run(operation, action);
    }

    /** Two hashes in the agent's slot, expiring with its keys, as the backend's segment area. */
    private final class Segments implements HistorySegmentStore {
        private final SegmentStore store;
        private final Clock clock;

        Segments(SegmentStore store, Clock clock) {
            this.store = store;
            this.clock = clock;
        }

        /** One script: create if absent, record the write time, align the expiry with the agent's keys. */
        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            run("putSegment of agent '" + agentId + "'", () -> {
                store.put(agentId, segmentId, content, clock.instant());
                return null;
            });
        }

        /** One {@code HMGET} for all requested segments. */
        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            return run("getSegments of agent '" + agentId + "'", () -> store.get(agentId, segmentIds));
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return run("listSegments of agent '" + agentId + "'", () -> store.list(agentId));
        }

        /** One script that checks each segment's write time against the cutoff before deleting it. */
        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return run(
                    "deleteSegments of agent '" + agentId + "'",
                    () -> store.delete(agentId, segmentIds, writtenBefore));
        }

        @Override
        public List<String> listSegmentAgents() {
            return run("listSegmentAgents", store::agents);
        }
    }
}
