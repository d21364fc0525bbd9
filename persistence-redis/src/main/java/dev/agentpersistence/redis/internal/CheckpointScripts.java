package dev.agentpersistence.redis.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The Redis operations behind the backend, one script call per operation (plus the agent-index calls of cluster mode).
 * Arguments are validated by the shell; Jedis exceptions pass through.
 *
 * <p>Large bodies never pass through Lua, where Redis copies a value on the way in and again on the way out (a 70 KB
 * body cost 84-128 µs of server time each way, a plain command 1-2 µs): from {@link #LARGE} bytes a save writes the
 * body with a plain {@code HSETNX} between the save script and {@code settle.lua} in one MULTI (standalone mode), and
 * reads return such bodies as their length, to be fetched with a plain {@code HGET}/{@code HMGET}.
 */
public final class CheckpointScripts {
    private static final RedisScript SAVE = RedisScript.load("save");
    private static final RedisScript QUERY = RedisScript.load("query");
    private static final RedisScript GET = RedisScript.load("get");
    private static final RedisScript DELETE = RedisScript.load("delete");
    private static final RedisScript DELETE_BEFORE = RedisScript.load("delete_before");
    private static final RedisScript SETTLE = RedisScript.load("settle");
    private static final RedisScript LATEST = RedisScript.load("latest");

    /**
     * Bodies of at least this many bytes never pass through Lua: saves stage them (a plain command beside the save
     * script), reads fetch them with a plain command after their script. Through Lua a body costs about 1.3 µs of
     * server time per KiB each way (INFO commandstats on Redis 7.0), a plain command next to nothing; the price is a
     * transaction around the save and a second round trip for the read.
     */
    static final int LARGE = 8 * 1024;
    /**
     * Reads of large bodies after the script: when a body was deleted in between, the read runs again; the last attempt
     * returns every body from the script, in its one atomic step.
     */
    private static final int READ_ATTEMPTS = 3;

    private static final byte[] LARGEST_INLINE = bytes(Integer.toString(LARGE - 1));
    private static final byte[] EMPTY = new byte[0];
    private static final byte[] STAGED = bytes("1");
    private static final byte[] INLINE = bytes("0");

    private static final long WRITTEN = 0;
    private static final long VERSION_TAKEN = 1;
    private static final long ID_TAKEN = 2;
    private static final long HEAD_MOVED = 4;
    /** The expected head of a conditional save of an agent without records. */
    private static final byte[] NO_HEAD = bytes("-");

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final AgentIndex index;
    private final boolean cluster;
    private final Clock clock;
    private final byte[] maxBody;
    private final long maxBodyLength;
    private final String endpoint;

    /**
     * @param client the connection pool or cluster client
     * @param keys the key layout
     * @param cluster whether the agent index must be kept outside the scripts
     * @param clock turns expiry times into the time to live of an agent's keys
     * @param maxBody the largest body a read returns
     * @param endpoint where the data lives, password hidden, for messages
     */
    public CheckpointScripts(
            UnifiedJedis client, RedisKeys keys, boolean cluster, Clock clock, long maxBody, String endpoint) {
        this.client = client;
        this.keys = keys;
        this.index = new AgentIndex(client, keys, cluster);
        this.cluster = cluster;
        this.clock = clock;
        this.maxBody = bytes(Long.toString(maxBody));
        this.maxBodyLength = maxBody;
        this.endpoint = endpoint;
    }

    /**
     * Writes {@code checkpoint} unless its version or id is taken; then answers with the stored record holding it. With
     * {@code first}, plain commands (never scripts, which a server that lost them would skip) are queued in the same
     * MULTI before the save script (standalone mode only; {@code null} for none). With {@code expected} (not
     * {@code null}) it writes only while the agent's newest record is that head (empty: while it has none), checked by
     * the save script before it writes anything.
     */
    public InsertResult save(
            StoredCheckpoint checkpoint, Consumer<AbstractTransaction> first, Optional<ExpectedHead> expected) {
        if (first != null && cluster) {
            throw new IllegalStateException("a MULTI around a save spans one connection: not in cluster mode");
        }
        String agentId = checkpoint.agentId();
        AgentKeys agent = keys.agent(agentId);
        String version = IndexValues.version(checkpoint.version());
        long ttlMillis = checkpoint.expiresAt() == null
                ? 0
                : Math.max(1, checkpoint.expiresAt().toEpochMilli() - clock.millis());
        // a MULTI spans one connection: a cluster client keeps the body in the script's arguments
        boolean staged = !cluster && checkpoint.document().length >= LARGE;
        List<byte[]> args = List.of(
                bytes(version),
                bytes(checkpoint.checkpointId()),
                staged ? EMPTY : checkpoint.document(),
                CheckpointAttributes.of(checkpoint),
                bytes(Long.toString(ttlMillis)),
                bytes(agentId),
                staged ? STAGED : INLINE,
                expected == null
                        ? EMPTY
                        : expected.map(head -> bytes(IndexValues.version(head.version())))
                                .orElse(NO_HEAD),
                expected == null || expected.isEmpty()
                        ? EMPTY
                        : bytes(expected.get().checkpointId()));
        index.beforeSave(agentId);
        List<byte[]> saveKeys = index.saveKeys(agent, keys.segments(agentId));
        List<?> reply = list(
                staged || first != null
                        ? saveInTransaction(
                                agent, saveKeys, args, bytes(version), staged ? checkpoint.document() : null, first)
                        : SAVE.run(client, saveKeys, args));
        long status = number(reply.get(0));
        if (status == HEAD_MOVED) {
            return InsertResult.headMoved();
        }
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
        throw corrupt(
                agent,
                checkpoint.checkpointId(),
                AgentKeys.describe(agent.ids()) + " field '" + checkpoint.checkpointId() + "'",
                "the id index names version " + storedVersion + " but " + AgentKeys.describe(agent.bodies())
                        + " holds no body there");
    }

    /**
     * One MULTI: the commands of {@code first} (history segments, which must be stored before the record), the save
     * script (conflict checks, indexes) and, for a staged body, {@code HSETNX} of the body and {@code settle.lua},
     * which removes the body again unless the script indexed its version. So a conflicting save leaves no body behind,
     * and neither does a server that lost its scripts: then the scripts fail with NOSCRIPT, the settle step's absence
     * leaves at most an unindexed body that the next save of that version removes, and the transaction runs again with
     * the scripts in full (the plain commands of {@code first} run again: they are idempotent).
     *
     * @param body the staged body, or {@code null} when it is in the script's arguments
     */
    private Object saveInTransaction(
            AgentKeys agent,
            List<byte[]> saveKeys,
            List<byte[]> args,
            byte[] version,
            byte[] body,
            Consumer<AbstractTransaction> first) {
        boolean inFull = false;
        while (true) {
            Response<Object> saved;
            Response<Object> settled = null;
            try (AbstractTransaction transaction = client.multi()) {
                if (first != null) {
                    first.accept(transaction);
                }
                saved = SAVE.queue(transaction, saveKeys, args, inFull);
                if (body != null) {
                    transaction.hsetnx(agent.bodies(), version, body);
                    settled = SETTLE.queue(
                            transaction, List.of(agent.versions(), agent.bodies()), List.of(version), inFull);
                }
                transaction.exec();
            }
            try {
                if (settled != null) {
                    settled.get();
                }
                return saved.get();
            } catch (JedisDataException e) {
                if (inFull || !RedisScript.missing(e)) {
                    throw e;
                }
                inFull = true;
            }
        }
    }

    /** The matching records, ascending by version; {@code latestOnly} keeps just the newest. */
    public List<StoredDocument> query(String agentId, CheckpointFilter filter, boolean latestOnly) {
        AgentKeys agent = keys.agent(agentId);
        boolean newest = latestOnly && QueryArguments.versionsOnly(filter);
        List<byte[]> queryKeys = newest
                ? List.of(agent.versions(), agent.bodies())
                : List.of(agent.versions(), agent.bodies(), agent.attributes());
        for (int attempt = 1; ; attempt++) {
            byte[] inline = attempt < READ_ATTEMPTS ? LARGEST_INLINE : maxBody;
            List<?> reply = list(
                    newest
                            ? LATEST.run(client, queryKeys, QueryArguments.latest(filter, maxBody, inline))
                            : QUERY.run(client, queryKeys, QueryArguments.of(filter, latestOnly, maxBody, inline)));
            List<StoredDocument> found = documents(agent, reply);
            if (found != null) {
                return found;
            }
        }
    }

    /** The records of a query reply, the large bodies read after it; {@code null} when one was deleted meanwhile. */
    private List<StoredDocument> documents(AgentKeys agent, List<?> reply) {
        long status = number(reply.get(0));
        if (status == 1) {
            String version = text(reply.get(1));
            throw corrupt(
                    agent,
                    null,
                    AgentKeys.describe(agent.attributes()) + " field " + version,
                    "the attribute record of version " + version + " is missing or not readable");
        }
        if (status == 2) {
            String version = text(reply.get(1));
            throw corrupt(
                    agent,
                    null,
                    AgentKeys.describe(agent.bodies()) + " field " + version,
                    "version " + version + " is indexed but has no body");
        }
        if (status == 3) {
            throw tooLarge(agent, null, text(reply.get(1)), number(reply.get(2)));
        }
        var large = new ArrayList<byte[]>();
        for (int i = 2; i < reply.size(); i += 2) {
            if (!(reply.get(i) instanceof byte[])) {
                large.add((byte[]) reply.get(i - 1));
            }
        }
        List<byte[]> fetched = large.isEmpty() ? List.of() : client.hmget(agent.bodies(), large.toArray(byte[][]::new));
        var result = new ArrayList<StoredDocument>(Math.min(reply.size() / 2, 1024));
        int next = 0;
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            String version = text(reply.get(i));
            byte[] body = reply.get(i + 1) instanceof byte[] inline ? inline : fetched.get(next++);
            if (body == null) {
                return null;
            }
            result.add(document(agent, version, checkedLength(agent, null, version, body), null));
        }
        return List.copyOf(result);
    }

    /** {@code body}, unless a concurrent re-save made it longer than the maximum since its length was checked. */
    private byte[] checkedLength(AgentKeys agent, String checkpointId, String version, byte[] body) {
        if (body.length > maxBodyLength) {
            throw tooLarge(agent, checkpointId, version, body.length);
        }
        return body;
    }

    /** One record by id. */
    public Optional<StoredDocument> get(String agentId, String checkpointId) {
        AgentKeys agent = keys.agent(agentId);
        for (int attempt = 1; ; attempt++) {
            byte[] inline = attempt < READ_ATTEMPTS ? LARGEST_INLINE : maxBody;
            List<?> reply = list(GET.run(
                    client, List.of(agent.bodies(), agent.ids()), List.of(bytes(checkpointId), maxBody, inline)));
            long status = number(reply.get(0));
            if (status == 0) {
                return Optional.empty();
            }
            String version = text(reply.get(1));
            if (status == 2) {
                throw corrupt(
                        agent,
                        checkpointId,
                        AgentKeys.describe(agent.ids()) + " field '" + checkpointId + "'",
                        "the id index names version " + version + " but it has no body");
            }
            if (status == 3) {
                throw tooLarge(agent, checkpointId, version, number(reply.get(2)));
            }
            byte[] body = status == 4 ? client.hget(agent.bodies(), (byte[]) reply.get(1)) : (byte[]) reply.get(2);
            if (body != null) {
                return Optional.of(
                        document(agent, version, checkedLength(agent, checkpointId, version, body), checkpointId));
            }
        }
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
        List<?> reply = list(DELETE_BEFORE.run(
                client, index.scriptKeys(agent), List.of(bytes(IndexValues.version(version)), bytes(agentId))));
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
        return new StoredDocument(
                agent.agentId(), checkpointId, IndexValues.parseVersion(version), body, where(agent, version));
    }

    private String where(AgentKeys agent, String version) {
        return endpoint + " key " + AgentKeys.describe(agent.bodies()) + " field " + version;
    }

    private CorruptCheckpointException tooLarge(AgentKeys agent, String checkpointId, String version, long length) {
        return new CorruptCheckpointException(
                agent.agentId(),
                checkpointId,
                where(agent, version),
                "the stored body has " + length + " bytes, more than the maximum checkpoint size of " + text(maxBody),
                null);
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
