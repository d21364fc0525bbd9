package dev.agentpersistence.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The five keys of one agent, all in the agent's hash slot.
 *
 * @param agentId the agent
 * @param versions sorted set, every member scored 0 and named by the 19-digit version, so BYLEX ranges order by version
 * @param createdAt sorted set written by older builds' saves only (member the 19-digit version, score the creation time
 *     in epoch milliseconds); no longer read, still cleared by deletions and given the agent's expiry
 * @param bodies hash, 19-digit version → the codec's document
 * @param attributes hash, 19-digit version → small JSON of the fields filters look at
 * @param ids hash, checkpoint id → 19-digit version
 */
public record AgentKeys(
        String agentId, byte[] versions, byte[] createdAt, byte[] bodies, byte[] attributes, byte[] ids) {

    /** The keys in the order every script declares them. */
    public List<byte[]> all() {
        return List.of(versions, createdAt, bodies, attributes, ids);
    }

    /** The keys followed by {@code more} (the agent index in standalone mode). */
    public List<byte[]> with(byte[] more) {
        return List.of(versions, createdAt, bodies, attributes, ids, more);
    }

    /** A key as text, for messages. */
    public static String describe(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
