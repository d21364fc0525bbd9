package dev.agentpersistence.history.internal;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latest {@link CachedHistory} of recently saved or read agents, least recently used evicted first, so that saves
 * extending a cached history hash only their new blocks. Bounded twice: at most {@code maxAgents} agents and at most
 * {@code maxMessages} messages referenced in total (the cache holds the messages of each agent's last history to
 * compare the next one with). Thread-safe.
 */
public final class ChainCache {
    private final int maxAgents;
    private final long maxMessages;
    private final LinkedHashMap<String, CachedHistory> byAgent = new LinkedHashMap<>(16, 0.75f, true);
    private long messages;

    public ChainCache(int maxAgents, long maxMessages) {
        if (maxAgents < 1 || maxMessages < 0) {
            throw new IllegalArgumentException("maxAgents must be at least 1 and maxMessages not negative but were "
                    + maxAgents + " and " + maxMessages);
        }
        this.maxAgents = maxAgents;
        this.maxMessages = maxMessages;
    }

    /** The agent's known history in tiered segments, or {@code null}. */
    public synchronized KnownHistory get(String agentId) {
        return byAgent.get(agentId) instanceof KnownHistory known ? known : null;
    }

    /** The agent's known message log path, or {@code null}. */
    public synchronized KnownLog log(String agentId) {
        return byAgent.get(agentId) instanceof KnownLog known ? known : null;
    }

    /** Remembers the agent's latest history; a history larger than the whole budget is not kept. */
    public synchronized void put(String agentId, CachedHistory known) {
        remove(agentId);
        if (known.messageCount() > maxMessages) {
            return;
        }
        byAgent.put(agentId, known);
        messages += known.messageCount();
        Iterator<Map.Entry<String, CachedHistory>> eldest = byAgent.entrySet().iterator();
        while ((byAgent.size() > maxAgents || messages > maxMessages) && eldest.hasNext()) {
            var entry = eldest.next();
            if (entry.getKey().equals(agentId)) {
                continue;
            }
            messages -= entry.getValue().messageCount();
            eldest.remove();
        }
    }

    /** Forgets the agent (its segments may have been deleted). */
    public synchronized void forget(String agentId) {
        remove(agentId);
    }

    /** Forgets every agent. */
    public synchronized void clear() {
        byAgent.clear();
        messages = 0;
    }

    private void remove(String agentId) {
        CachedHistory removed = byAgent.remove(agentId);
        if (removed != null) {
            messages -= removed.messageCount();
        }
    }
}
