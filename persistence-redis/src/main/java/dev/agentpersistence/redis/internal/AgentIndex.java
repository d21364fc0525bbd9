package dev.agentpersistence.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The set of agent ids behind {@code listAgents}. An entry may outlive its agent (keys expired by the TTL; in cluster
 * mode also a crash between the index write and the save): {@link #list()} checks each candidate's versions key and
 * drops stale entries. An agent with checkpoints is never missing, except in the cluster-mode window described in the
 * module README.
 *
 * <p>Standalone mode: the save and delete scripts update the set in the same atomic step, so {@link #beforeSave},
 * {@link #afterSave} do nothing. Cluster mode: the set lives in its own slot, which no script of an agent may touch, so
 * a save adds the id before its script (a crash leaves at most a stale entry) and again after it (undoing a concurrent
 * removal), and a removal re-checks the agent and adds the id back when a save got in between.
 */
public final class AgentIndex {
    private static final RedisScript FORGET = RedisScript.load("forget_agent");

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final boolean cluster;

    /** The index under {@code keys}; {@code cluster} selects the cluster-mode protocol. */
    public AgentIndex(UnifiedJedis client, RedisKeys keys, boolean cluster) {
        this.client = client;
        this.keys = keys;
        this.cluster = cluster;
    }

    /**
     * The keys of the save script: the agent's checkpoint keys, its history segment keys (whose expiry the save
     * refreshes with the others), plus the index in standalone mode.
     */
    public List<byte[]> saveKeys(AgentKeys agent, SegmentKeys segments) {
        var all = new ArrayList<>(agent.all());
        all.add(segments.contents());
        all.add(segments.times());
        if (!cluster) {
            all.add(keys.agentIndex());
        }
        return all;
    }

    /** The keys a writing script of {@code agent} declares: the agent's, plus the index in standalone mode. */
    public List<byte[]> scriptKeys(AgentKeys agent) {
        return cluster ? agent.all() : agent.with(keys.agentIndex());
    }

    /** Called before a save's script. */
    public void beforeSave(String agentId) {
        if (cluster) {
            client.sadd(keys.agentIndex(), bytes(agentId));
        }
    }

    /** Called after a save's script found or wrote the checkpoint. */
    public void afterSave(String agentId) {
        if (cluster) {
            client.sadd(keys.agentIndex(), bytes(agentId));
        }
    }

    /** Removes the agent from the index unless it has checkpoints. */
    public void forgetIfEmpty(AgentKeys agent) {
        byte[] member = bytes(agent.agentId());
        if (!cluster) {
            FORGET.run(client, List.of(agent.versions(), keys.agentIndex()), List.of(member));
            return;
        }
        if (client.exists(agent.versions())) {
            return;
        }
        client.srem(keys.agentIndex(), member);
        if (client.exists(agent.versions())) {
            client.sadd(keys.agentIndex(), member);
        }
    }

    /** The ids of agents with at least one checkpoint, sorted; drops stale entries on the way. */
    public List<String> list() {
        return IndexSet.liveMembers(
                client, keys.agentIndex(), id -> keys.agent(id).versions(), id -> forgetIfEmpty(keys.agent(id)));
    }

    private static byte[] bytes(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }
}
