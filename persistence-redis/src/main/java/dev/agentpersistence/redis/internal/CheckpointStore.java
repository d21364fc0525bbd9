package dev.agentpersistence.redis.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.spi.StorageChecks;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis operations behind the provider, one script call per operation (plus the agent-index
 * calls of cluster mode). Arguments are validated by the caller; Jedis exceptions pass through.
 */
public final class CheckpointStore {
    private static final RedisScript SAVE = RedisScript.load("save");
    private static final RedisScript QUERY = RedisScript.load("query");
    private static final RedisScript GET = RedisScript.load("get");
    private static final RedisScript DELETE = RedisScript.load("delete");
    private static final RedisScript DELETE_BEFORE = RedisScript.load("delete_before");

    private static final long WRITTEN = 0;
    private static final long VERSION_TAKEN = 1;
    private static final long ID_TAKEN = 2;

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final AgentIndex index;
    private final CheckpointCodec codec;
    private final byte[] ttlMillis;
    private final String endpoint;

    /**
     * @param client   the connection pool or cluster client
     * @param keys     the key layout
     * @param cluster  whether the agent index must be kept outside the scripts
     * @param codec    turns checkpoints into stored documents
     * @param ttl      the lifetime of an agent's keys, or {@code null}
     * @param endpoint where the data lives, password hidden, for messages
     */
    public CheckpointStore(UnifiedJedis client, RedisKeys keys, boolean cluster, CheckpointCodec codec, Duration ttl,
                           String endpoint) {
        this.client = client;
        this.keys = keys;
        this.index = new AgentIndex(client, keys, cluster);
        this.codec = codec;
        this.ttlMillis = bytes(ttl == null ? "0" : Long.toString(ttl.toMillis()));
        this.endpoint = endpoint;
    }

    /** Writes {@code checkpoint}, or returns when an identical one is stored; else throws a conflict. */
    public void save(String agentId, AgentCheckpoint checkpoint) {
        AgentKeys agent = keys.agent(agentId);
        String version = IndexValues.version(checkpoint.version());
        List<byte[]> args = List.of(bytes(version), bytes(checkpoint.checkpointId()), codec.encode(checkpoint),
                CheckpointAttributes.of(checkpoint), bytes(IndexValues.instantScore(checkpoint.createdAt())),
                ttlMillis, bytes(agentId));
        index.beforeSave(agentId);
        List<?> reply = list(SAVE.run(client, index.saveKeys(agent, keys.segments(agentId)), args));
        long status = number(reply.get(0));
        if (status == WRITTEN) {
            index.afterSave(agentId);
            return;
        }
        if (status == VERSION_TAKEN || status == ID_TAKEN) {
            boolean sameVersion = status == VERSION_TAKEN;
            AgentCheckpoint stored = sameVersion
                    ? decode(agent, version, (byte[]) reply.get(1), null)
                    : decode(agent, text(reply.get(1)), (byte[]) reply.get(2), checkpoint.checkpointId());
            StorageChecks.requireIdentical(agentId, checkpoint, stored);
            index.afterSave(agentId);
            return;
        }
        String storedVersion = text(reply.get(1));
        throw corrupt(agent, checkpoint.checkpointId(), AgentKeys.describe(agent.ids()) + " field '"
                + checkpoint.checkpointId() + "'", "the id index names version " + storedVersion + " but "
                + AgentKeys.describe(agent.bodies()) + " holds no body there");
    }

    /** The matching checkpoints, ascending by version; {@code latestOnly} keeps just the newest. */
    public List<AgentCheckpoint> query(String agentId, CheckpointFilter filter, boolean latestOnly) {
        AgentKeys agent = keys.agent(agentId);
        CheckpointFilter f = filter == null ? CheckpointFilter.ALL : filter;
        List<?> reply = list(QUERY.run(client, List.of(agent.versions(), agent.createdAt(), agent.bodies(),
                agent.attributes()), QueryArguments.of(f, latestOnly)));
        long status = number(reply.get(0));
        if (status == 1) {
            String version = text(reply.get(1));
            throw corrupt(agent, null, AgentKeys.describe(agent.attributes()) + " field " + version,
                    "the attribute record of version " + version + " is missing or not readable");
        }
        if (status == 2) {
            String version = text(reply.get(1));
            throw corrupt(agent, null, AgentKeys.describe(agent.bodies()) + " field " + version,
                    "version " + version + " is indexed but has no body");
        }
        var result = new ArrayList<AgentCheckpoint>((reply.size() - 1) / 2);
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            result.add(decode(agent, text(reply.get(i)), (byte[]) reply.get(i + 1), null));
        }
        return List.copyOf(result);
    }

    /** One checkpoint by id. */
    public Optional<AgentCheckpoint> get(String agentId, String checkpointId) {
        AgentKeys agent = keys.agent(agentId);
        List<?> reply = list(GET.run(client, List.of(agent.bodies(), agent.ids()), List.of(bytes(checkpointId))));
        long status = number(reply.get(0));
        if (status == 0) {
            return Optional.empty();
        }
        String version = text(reply.get(1));
        if (status == 2) {
            throw corrupt(agent, checkpointId, AgentKeys.describe(agent.ids()) + " field '" + checkpointId + "'",
                    "the id index names version " + version + " but it has no body");
        }
        return Optional.of(decode(agent, version, (byte[]) reply.get(2), checkpointId));
    }

    /** Deletes every checkpoint of the agent; returns how many there were. */
    public int delete(String agentId) {
        AgentKeys agent = keys.agent(agentId);
        long deleted = number(DELETE.run(client, index.scriptKeys(agent), List.of(bytes(agentId))));
        index.forgetIfEmpty(agent);
        return Math.toIntExact(deleted);
    }

    /** Deletes the versions strictly below {@code version}; returns how many. */
    public int deleteBefore(String agentId, long version) {
        if (version <= 0) {
            return 0;
        }
        AgentKeys agent = keys.agent(agentId);
        List<?> reply = list(DELETE_BEFORE.run(client, index.scriptKeys(agent),
                List.of(bytes(IndexValues.version(version)), bytes(agentId))));
        if (number(reply.get(1)) == 0) {
            index.forgetIfEmpty(agent);
        }
        return Math.toIntExact(number(reply.get(0)));
    }

    /** Sorted ids of the agents with checkpoints. */
    public List<String> listAgents() {
        return index.list();
    }

    private AgentCheckpoint decode(AgentKeys agent, String version, byte[] body, String expectedId) {
        String where = endpoint + " key " + AgentKeys.describe(agent.bodies()) + " field " + version;
        AgentCheckpoint checkpoint = codec.decode(body, new CheckpointLocation(agent.agentId(), expectedId, where));
        if (checkpoint.version() != IndexValues.parseVersion(version)) {
            throw new CorruptCheckpointException(agent.agentId(), checkpoint.checkpointId(), where,
                    "the document holds version " + checkpoint.version(), null);
        }
        return checkpoint;
    }

    private CorruptCheckpointException corrupt(AgentKeys agent, String checkpointId, String key, String problem) {
        return new CorruptCheckpointException(agent.agentId(), checkpointId, endpoint + " key " + key, problem, null);
    }

    private static List<?> list(Object reply) {
        if (reply instanceof List<?> list && !list.isEmpty()) {
            return list;
        }
        throw new IllegalStateException("Unexpected script reply: " + reply);
    }

    private static long number(Object value) {
        if (value instanceof Long n) {
            return n;
        }
        throw new IllegalStateException("Unexpected script reply element: " + value);
    }

    private static String text(Object value) {
        if (value instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        throw new IllegalStateException("Unexpected script reply element: " + value);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
