package dev.agentpersistence.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The key layout. Every key of one agent carries the hash tag <code>{base64url(utf8(agentId))}</code>, so an agent
 * lives in one cluster slot and any id (braces, colons, spaces, unicode) becomes a safe key part. The agent index is
 * one key outside every agent's slot.
 */
public final class RedisKeys {
    private static final Base64.Encoder TAG = Base64.getUrlEncoder().withoutPadding();

    private final String prefix;
    private final byte[] agentIndex;
    private final byte[] segmentAgentIndex;

    /** Keys under {@code prefix}, which must not contain braces (checked by the configuration). */
    public RedisKeys(String prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.agentIndex = bytes(prefix + "agents");
        this.segmentAgentIndex = bytes(prefix + "segment-agents");
    }

    /** The keys of one agent. */
    public AgentKeys agent(String agentId) {
        String base = prefix + "{" + TAG.encodeToString(agentId.getBytes(StandardCharsets.UTF_8)) + "}:";
        return new AgentKeys(
                agentId, bytes(base + "v"), bytes(base + "c"), bytes(base + "b"), bytes(base + "m"), bytes(base + "i"));
    }

    /** The two history segment keys of one agent, in the agent's slot. */
    public SegmentKeys segments(String agentId) {
        String base = prefix + "{" + TAG.encodeToString(agentId.getBytes(StandardCharsets.UTF_8)) + "}:";
        return new SegmentKeys(agentId, bytes(base + "s"), bytes(base + "t"));
    }

    /**
     * The keys of native queue {@code queue}, in the order its scripts take them: items, versions, order, runnable,
     * finished, holds. They carry the hash tag <code>{q:base64url(utf8(queue))}</code>, which no agent's tag can be
     * (base64url has no colon), so a queue lives in one slot apart from every agent.
     */
    public List<byte[]> queue(String queue) {
        String base = prefix + "{q:" + TAG.encodeToString(queue.getBytes(StandardCharsets.UTF_8)) + "}:";
        return List.of(
                bytes(base + "qi"),
                bytes(base + "qv"),
                bytes(base + "qo"),
                bytes(base + "qr"),
                bytes(base + "qf"),
                bytes(base + "qh"));
    }

    /** The set of agent ids that have (or recently had) history segments. */
    public byte[] segmentAgentIndex() {
        return segmentAgentIndex.clone();
    }

    /** The set of agent ids that have (or recently had) checkpoints. */
    public byte[] agentIndex() {
        return agentIndex.clone();
    }

    /** The prefix every key starts with. */
    public String prefix() {
        return prefix;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
