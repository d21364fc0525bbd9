package dev.agentpersistence.redis.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis operations behind the backend, one script call per operation (plus the agent-index
 * calls of cluster mode). Arguments are validated by the shell; Jedis exceptions pass through.
 */
public final class CheckpointScripts {
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
    private final Clock clock;
    private final byte[] maxBody;
    private final String endpoint;

    /**
     * @param client   the connection pool or cluster client
     * @param keys     the key layout
     * @param cluster  whether the agent index must be kept outside the scripts
     * @param clock    turns expiry times into the time to live of an agent's keys
     * @param maxBody  the largest body a read returns
     * @param endpoint where the data lives, password hidden, for messages
     */
    public CheckpointScripts(UnifiedJedis client, RedisKeys keys, boolean cluster, Clock clock, long maxBody,
                             String endpoint) {
        this.client = client;
        this.keys = keys;
        this.index = new AgentIndex(client, keys, cluster);
        this.clock = clock;
        this.maxBody = bytes(Long.toString(maxBody));
        this.endpoint = endpoint;
    }

    /** Writes {@code checkpoint} unless its version or id is taken; then answers with the stored record holding it. */
    public InsertResult save(StoredCheckpoint checkpoint) {
        String agentId = checkpoint.agentId();
        AgentKeys agent = keys.agent(agentId);
        String version = IndexValues.version(checkpoint.version());
        long ttlMillis = checkpoint.expiresAt() == null ? 0
                : Math.max(1, checkpoint.expiresAt().toEpochMilli() - clock.millis());
        List<byte[]> args = List.of(bytes(version), bytes(checkpoint.checkpointId()), checkpoint.document(),
                CheckpointAttributes.of(checkpoint), bytes(IndexValues.instantScore(checkpoint.createdAt())),
                bytes(Long.toString(ttlMillis)), bytes(agentId));
        index.beforeSave(agentId);
        List<?> reply = list(SAVE.run(client, index.saveKeys(agent, keys.segments(agentId)), args));
        long status = number(reply.get(0));
        if (status == WRITTEN) {
            index.afterSave(agentId);
            return InsertResult.stored();
        }
        if (status == VERSION_TAKEN || status == ID_TAKEN) {
            StoredDocument stored = status == VERSION_TAKEN
                    ? document(agent, version, (byte[]) reply.get(1), null)
                    : document(agent, text(reply.get(1)), (byte[]) reply.get(2), checkpoint.checkpointId());
            index.afterSave(agentId);
            return InsertResult.clashedWith(List.of(stored));
        }
        String storedVersion = text(reply.get(1));
        throw corrupt(agent, checkpoint.checkpointId(), AgentKeys.describe(agent.ids()) + " field '"
                + checkpoint.checkpointId() + "'", "the id index names version " + storedVersion + " but "
                + AgentKeys.describe(agent.bodies()) + " holds no body there");
    }

    /** The matching records, ascending by version; {@code latestOnly} keeps just the newest. */
    public List<StoredDocument> query(String agentId, CheckpointFilter filter, boolean latestOnly) {
        AgentKeys agent = keys.agent(agentId);
        List<?> reply = list(QUERY.run(client, List.of(agent.versions(), agent.createdAt(), agent.bodies(),
                agent.attributes()), QueryArguments.of(filter, latestOnly, maxBody)));
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
        if (status == 3) {
            throw tooLarge(agent, null, text(reply.get(1)), number(reply.get(2)));
        }
        var result = new ArrayList<StoredDocument>(Math.min(reply.size() / 2, 1024));
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            result.add(document(agent, text(reply.get(i)), (byte[]) reply.get(i + 1), null));
        }
        return List.copyOf(result);
    }

    /** One record by id. */
    public Optional<StoredDocument> get(String agentId, String checkpointId) {
        AgentKeys agent = keys.agent(agentId);
        List<?> reply = list(GET.run(client, List.of(agent.bodies(), agent.ids()), List.of(bytes(checkpointId), maxBody)));
        long status = number(reply.get(0));
        if (status == 0) {
            return Optional.empty();
        }
        String version = text(reply.get(1));
        if (status == 2) {
            throw corrupt(agent, checkpointId, AgentKeys.describe(agent.ids()) + " field '" + checkpointId + "'",
                    "the id index names version " + version + " but it has no body");
        }
        if (status == 3) {
            throw tooLarge(agent, checkpointId, version, number(reply.get(2)));
        }
        return Optional.of(document(agent, version, (byte[]) reply.get(2), checkpointId));
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

    private StoredDocument document(AgentKeys agent, String version, byte[] body, String checkpointId) {
        return new StoredDocument(agent.agentId(), checkpointId, IndexValues.parseVersion(version), body,
                where(agent, version));
    }

    private String where(AgentKeys agent, String version) {
        return endpoint + " key " + AgentKeys.describe(agent.bodies()) + " field " + version;
    }

    private CorruptCheckpointException tooLarge(AgentKeys agent, String checkpointId, String version, long length) {
        return new CorruptCheckpointException(agent.agentId(), checkpointId, where(agent, version), "the stored body has "
                + length + " bytes, more than the maximum checkpoint size of " + text(maxBody), null);
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

    private static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
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
