package dev.agentpersistence.history.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latest {@link KnownHistory} of up to {@code capacity} agents, least recently used evicted
 * first. Saves that extend the cached history hash only their new blocks. Thread-safe.
 */
public final class ChainCache {
    private final Map<String, KnownHistory> byAgent;

    public ChainCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 but was " + capacity);
        }
        this.byAgent = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, KnownHistory> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The agent's known history, or {@code null}. */
    public synchronized KnownHistory get(String agentId) {
        return byAgent.get(agentId);
    }

    /** Remembers the agent's latest history. */
    public synchronized void put(String agentId, KnownHistory known) {
        byAgent.put(agentId, known);
    }

    /** Forgets the agent (its segments may have been deleted). */
    public synchronized void forget(String agentId) {
        byAgent.remove(agentId);
    }

    /** Forgets every agent. */
    public synchronized void clear() {
        byAgent.clear();
    }
}
