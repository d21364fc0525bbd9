package dev.agentpersistence.redis.internal;

import dev.agentpersistence.backend.SegmentInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.UnifiedJedis;

/**
 * History segments in two hashes per agent ({@link SegmentKeys}): a put is one script (create if absent, record the
 * write time, align the expiry with the agent's TTL), a read of any number of segments one {@code HMGET}, a deletion
 * one script that checks each write time against the cutoff. The checkpoint save script refreshes the expiry of these
 * keys with the agent's other keys, so with a TTL segments live exactly as long as the checkpoints that need them.
 *
 * <p>Agents with segments are kept in a set outside every agent's slot, maintained like the cluster-mode agent index:
 * added before a put, removed after a deletion that emptied the agent (and added back when a put got in between); stale
 * entries are dropped when listed.
 */
public final class SegmentStore {
    private static final RedisScript PUT = RedisScript.load("segment_put");
    private static final RedisScript DELETE = RedisScript.load("segment_delete");

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final byte[] ttlMillis;
    private final long ttl;

    /** Segments under {@code keys}; {@code ttl} is the agent's key lifetime, or {@code null}. */
    public SegmentStore(UnifiedJedis client, RedisKeys keys, Duration ttl) {
        this.client = client;
        this.keys = keys;
        this.ttlMillis = bytes(ttl == null ? "0" : Long.toString(ttl.toMillis()));
        this.ttl = ttl == null ? 0 : ttl.toMillis();
    }

    /** Stores the segment unless present and records {@code now} as its write time. */
    public void put(String agentId, String segmentId, byte[] content, Instant now) {
        SegmentKeys segment = keys.segments(agentId);
        client.sadd(keys.segmentAgentIndex(), bytes(agentId));
        PUT.run(
                client,
                List.of(segment.contents(), segment.times()),
                List.of(bytes(segmentId), content, bytes(Long.toString(now.toEpochMilli())), ttlMillis));
    }

    /**
     * Queues, in a MULTI, what {@link #put} does for each of {@code contents} (segment id to bytes), as plain commands:
     * the agent's entry in the segment index, {@code HSETNX} of the bytes, {@code HSET} of the write time and the keys'
     * time to live.
     */
    public void queuePut(AbstractTransaction transaction, String agentId, Map<String, byte[]> contents, Instant now) {
        SegmentKeys segment = keys.segments(agentId);
        transaction.sadd(keys.segmentAgentIndex(), bytes(agentId));
        byte[] time = bytes(Long.toString(now.toEpochMilli()));
        for (var entry : contents.entrySet()) {
            byte[] id = bytes(entry.getKey());
            transaction.hsetnx(segment.contents(), id, entry.getValue());
            transaction.hset(segment.times(), id, time);
        }
        for (byte[] key : List.of(segment.contents(), segment.times())) {
            if (ttl > 0) {
                transaction.pexpire(key, ttl);
            } else {
                transaction.persist(key);
            }
        }
    }

    /** The stored bytes of the given segments that exist, in one {@code HMGET}. */
    public Map<String, byte[]> get(String agentId, Collection<String> segmentIds) {
        var ids = List.copyOf(new LinkedHashSet<>(segmentIds));
        var found = new HashMap<String, byte[]>();
        if (ids.isEmpty()) {
            return found;
        }
        byte[][] fields = new byte[ids.size()][];
        for (int i = 0; i < ids.size(); i++) {
            fields[i] = bytes(ids.get(i));
        }
        List<byte[]> values = client.hmget(keys.segments(agentId).contents(), fields);
        for (int i = 0; i < ids.size(); i++) {
            if (values.get(i) != null) {
                found.put(ids.get(i), values.get(i));
            }
        }
        return found;
    }

    /** The agent's segments with their write times, sorted by id. */
    public List<SegmentInfo> list(String agentId) {
        var infos = new ArrayList<SegmentInfo>();
        client.hgetAll(keys.segments(agentId).times())
                .forEach((id, millis) ->
                        infos.add(new SegmentInfo(text(id), Instant.ofEpochMilli(Long.parseLong(text(millis))))));
        infos.sort((a, b) -> a.segmentId().compareTo(b.segmentId()));
        return infos;
    }

    /** Deletes the given segments written before {@code writtenBefore}; returns how many. */
    public int delete(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        if (segmentIds.isEmpty()) {
            return 0;
        }
        SegmentKeys segment = keys.segments(agentId);
        // a write time in whole milliseconds is before the cutoff exactly when it is before the cutoff rounded up
        long cutoff = writtenBefore.toEpochMilli() + (writtenBefore.getNano() % 1_000_000 == 0 ? 0 : 1);
        var args = new ArrayList<byte[]>(segmentIds.size() + 1);
        args.add(bytes(Long.toString(cutoff)));
        segmentIds.forEach(id -> args.add(bytes(id)));
        long deleted = (Long) DELETE.run(client, List.of(segment.contents(), segment.times()), args);
        forgetIfEmpty(segment);
        return Math.toIntExact(deleted);
    }

    /** The ids of agents with at least one segment, sorted; drops stale index entries on the way. */
    public List<String> agents() {
        return IndexSet.liveMembers(
                client,
                keys.segmentAgentIndex(),
                id -> keys.segments(id).times(),
                id -> forgetIfEmpty(keys.segments(id)));
    }

    private void forgetIfEmpty(SegmentKeys segment) {
        if (client.exists(segment.times())) {
            return;
        }
        byte[] member = bytes(segment.agentId());
        client.srem(keys.segmentAgentIndex(), member);
        if (client.exists(segment.times())) {
            client.sadd(keys.segmentAgentIndex(), member);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
