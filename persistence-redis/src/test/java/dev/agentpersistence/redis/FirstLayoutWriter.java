package dev.agentpersistence.redis;

import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.redis.internal.AgentIndex;
import dev.agentpersistence.redis.internal.AgentKeys;
import dev.agentpersistence.redis.internal.CheckpointAttributes;
import dev.agentpersistence.redis.internal.IndexValues;
import dev.agentpersistence.redis.internal.RedisKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * Saves and deletes as builds before 2026-12-02 did (the first layout): that build's {@code save.lua} and
 * {@code delete_before.lua}, kept as test resources, with that build's arguments. Its keys: the bare version in the
 * versions sorted set, the creation time in the createdAt sorted set, the attribute record in the attributes hash, the
 * body and the id index as today. Bodies go through the script's arguments (that build staged bodies of 8 KiB or more
 * beside the script; the keys are the same). Standalone mode.
 */
final class FirstLayoutWriter {
    private static final byte[] SAVE = resource("legacy/save.lua");
    private static final byte[] DELETE_BEFORE = resource("legacy/delete_before.lua");

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final AgentIndex index;
    private final Clock clock;

    FirstLayoutWriter(UnifiedJedis client, String keyPrefix, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.keys = new RedisKeys(keyPrefix);
        this.index = new AgentIndex(client, keys, false);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Writes {@code checkpoint} unless its version or id is taken, as the first layout's save did. */
    InsertResult insert(StoredCheckpoint checkpoint) {
        AgentKeys agent = keys.agent(checkpoint.agentId());
        String version = IndexValues.version(checkpoint.version());
        long ttlMillis = checkpoint.expiresAt() == null
                ? 0
                : Math.max(1, checkpoint.expiresAt().toEpochMilli() - clock.millis());
        List<byte[]> args = List.of(
                bytes(version),
                bytes(checkpoint.checkpointId()),
                checkpoint.document(),
                CheckpointAttributes.of(checkpoint),
                bytes(instantScore(checkpoint.createdAt())),
                bytes(Long.toString(ttlMillis)),
                bytes(checkpoint.agentId()),
                bytes("0"));
        List<?> reply = (List<?>) client.eval(SAVE, index.saveKeys(agent, keys.segments(checkpoint.agentId())), args);
        long status = (Long) reply.get(0);
        if (status == 0) {
            return InsertResult.stored();
        }
        if (status == 1) {
            return InsertResult.clashedWith(List.of(
                    new StoredDocument(checkpoint.agentId(), null, checkpoint.version(), (byte[]) reply.get(1))));
        }
        if (status == 2) {
            return InsertResult.clashedWith(List.of(new StoredDocument(
                    checkpoint.agentId(), checkpoint.checkpointId(), IndexValues.parseVersion(text(reply.get(1))), (byte
                                    [])
                            reply.get(2))));
        }
        throw new IllegalStateException("the id index names version " + text(reply.get(1)) + " without a body");
    }

    /** Deletes the versions below {@code version} as the first layout's script did; returns how many. */
    long deleteBefore(String agentId, long version) {
        List<?> reply = (List<?>) client.eval(
                DELETE_BEFORE,
                index.scriptKeys(keys.agent(agentId)),
                List.of(bytes(IndexValues.version(version)), bytes(agentId)));
        return (Long) reply.get(0);
    }

    /** The first layout's createdAt score: epoch milliseconds, correctly rounded to a double. */
    static String instantScore(Instant instant) {
        double millis = BigDecimal.valueOf(instant.getEpochSecond())
                .scaleByPowerOfTen(3)
                .add(BigDecimal.valueOf(instant.getNano(), 6))
                .doubleValue();
        return Double.toString(millis);
    }

    private static byte[] resource(String name) {
        try (InputStream in = FirstLayoutWriter.class.getResourceAsStream(name)) {
            return Objects.requireNonNull(in, name).readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(Object value) {
        return new String((byte[]) value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
