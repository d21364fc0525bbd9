package dev.agentpersistence.redis.internal;

/**
 * The history segment keys of one agent, sharing the agent's hash tag (so its slot) with its checkpoint keys.
 *
 * @param agentId the agent
 * @param contents hash, segment id → the segment's bytes
 * @param times hash, segment id → last write time in epoch milliseconds
 */
public record SegmentKeys(String agentId, byte[] contents, byte[] times) {}
