package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.internal.Isolation;
import dev.agentpersistence.internal.LruMaps;
import java.util.Map;
import java.util.Optional;

/**
 * The checkpoint last read per agent (decoded, history assembled), keyed by the identity of the stored
 * array it came from. Only for backends whose arrays never change while their record exists
 * ({@link dev.agentpersistence.backend.StorageBackend#sharesDocuments()}), so the same array always
 * reads as the same checkpoint. Hands out copies no caller shares ({@link Isolation}): the remembered
 * checkpoint itself when it holds no mutable JSON node. Keeps the most recently used agents, up to a
 * bound; thread-safe.
 */
public final class DecodedDocuments {
    private final boolean enabled;
    private final Map<String, Entry> byAgent;

    private DecodedDocuments(boolean enabled, int maxAgents) {
        this.enabled = enabled;
        this.byAgent = LruMaps.bounded(maxAgents);
    }

    /**
     * Remembers up to {@code maxAgents} agents' checkpoints over {@code backend} when it
     * {@linkplain StorageBackend#sharesDocuments() shares its stored arrays}; over any other backend it
     * remembers nothing and every lookup misses.
     */
    public static DecodedDocuments over(StorageBackend backend, int maxAgents) {
        return new DecodedDocuments(backend.sharesDocuments(), maxAgents);
    }

    /** An isolated copy of what {@code document} decoded to, when it is the array last decoded for the agent. */
    public Optional<AgentCheckpoint> get(String agentId, byte[] document) {
        if (!enabled) {
            return Optional.empty();
        }
        Entry entry;
        synchronized (byAgent) {
            entry = byAgent.get(agentId);
        }
        if (entry == null || entry.document != document) {
            return Optional.empty();
        }
        if (!entry.mutable) {
            return Optional.of(entry.checkpoint);
        }
        return Optional.of(Isolation.copy(entry.checkpoint, entry.historyMutable));
    }

    /** Remembers that {@code document} decoded to {@code checkpoint}, which the caller keeps using. */
    public void put(String agentId, byte[] document, AgentCheckpoint checkpoint) {
        if (!enabled) {
            return;
        }
        boolean historyMutable = Isolation.historyHasContainer(checkpoint);
        boolean mutable = historyMutable || Isolation.hasContainerOutsideHistory(checkpoint);
        var entry = new Entry(document, mutable ? Isolation.copy(checkpoint, historyMutable) : checkpoint, mutable,
                historyMutable);
        synchronized (byAgent) {
            byAgent.put(agentId, entry);
        }
    }

    /** Forgets the agent's checkpoint. */
    public void forget(String agentId) {
        synchronized (byAgent) {
            byAgent.remove(agentId);
        }
    }

    /** Forgets every agent's checkpoint. */
    public void clear() {
        synchronized (byAgent) {
            byAgent.clear();
        }
    }

    private record Entry(byte[] document, AgentCheckpoint checkpoint, boolean mutable, boolean historyMutable) {
    }
}
