package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.internal.Isolation;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The checkpoint last read per agent (decoded, history assembled) and the stored record it came from, so that reading
 * the same record again costs a comparison instead of a decode. A record is recognised by its version, id and content
 * (a backend may hand back a new array at each read; equal bytes under the same version and id decode to the same
 * checkpoint), for up to {@value #COMPARED_AGENTS} agents and documents of at most {@value #COMPARED_DOCUMENT_BYTES}
 * bytes, so what is kept stays small. Once a backend is seen handing back the very array it handed out before (a store
 * in the heap: backends never change an array they handed out), records are recognised by the identity of their arrays
 * instead, for up to the given number of agents and documents of any size, as the backend holds those arrays anyway.
 * Hands out copies no caller shares ({@link Isolation}): the remembered checkpoint itself when it holds no mutable JSON
 * node. Keeps the most recently used agents; thread-safe.
 */
public final class DecodedDocuments {
    /** Agents remembered over a backend that hands back new arrays. */
    static final int COMPARED_AGENTS = 128;
    /** The largest document remembered over such a backend (larger ones are decoded at every read). */
    static final int COMPARED_DOCUMENT_BYTES = 16 * 1024;

    private final boolean learns;
    private final int maxAgents;
    private final Map<String, Entry> byAgent;
    /** Whether the backend was seen handing back an array it handed out before. */
    private volatile boolean byIdentity;
    /** The array of the last record remembered by content, without keeping it: the backend's, if it shares them. */
    private volatile WeakReference<byte[]> lastArray;
    /**
     * The agent last looked up or remembered and its entry, read without the lock. It may lag behind the map by a
     * racing write, which costs a decode at worst: an entry is only used when it holds the record the backend returned.
     */
    private volatile Hit lastHit;

    private DecodedDocuments(boolean byIdentity, boolean learns, int maxAgents) {
        if (maxAgents < 1) {
            throw new IllegalArgumentException("maxAgents must be at least 1 but was " + maxAgents);
        }
        this.byIdentity = byIdentity;
        this.learns = learns;
        this.maxAgents = maxAgents;
        this.byAgent = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > agentBound();
            }
        };
    }

    /**
     * Remembers checkpoints by their content for up to {@value #COMPARED_AGENTS} agents, and by the identity of their
     * arrays for up to {@code maxAgents} once the backend is seen handing back an array it handed out before.
     */
    public static DecodedDocuments learning(int maxAgents) {
        return new DecodedDocuments(false, true, maxAgents);
    }

    /** Recognises records by the identity of their arrays, for up to {@code maxAgents} agents. */
    static DecodedDocuments byIdentity(int maxAgents) {
        return new DecodedDocuments(true, false, maxAgents);
    }

    /**
     * Recognises records by version, id and content only, for up to {@code maxAgents} (at most
     * {@value #COMPARED_AGENTS}).
     */
    static DecodedDocuments byContent(int maxAgents) {
        return new DecodedDocuments(false, false, maxAgents);
    }

    /** Whether records are recognised by the identity of their arrays (known or learned). */
    boolean recognisesByIdentity() {
        return byIdentity;
    }

    private int agentBound() {
        return byIdentity ? maxAgents : Math.min(maxAgents, COMPARED_AGENTS);
    }

    /** An isolated copy of what {@code stored} decoded to, when it is the record last decoded for the agent. */
    public Optional<AgentCheckpoint> get(String agentId, StoredDocument stored) {
        Entry entry;
        Hit hit = lastHit;
        if (hit != null && hit.agentId.equals(agentId)) {
            entry = hit.entry;
        } else {
            synchronized (byAgent) {
                entry = byAgent.get(agentId);
            }
            lastHit = entry == null ? null : new Hit(agentId, entry);
        }
        if (!byIdentity && learns) {
            WeakReference<byte[]> last = lastArray;
            if (last != null && last.get() == stored.document()) {
                byIdentity = true;
                lastArray = null;
            }
        }
        if (entry == null || !entry.holds(stored)) {
            return Optional.empty();
        }
        if (!entry.mutable) {
            return Optional.of(entry.checkpoint);
        }
        return Optional.of(Isolation.copy(entry.checkpoint, entry.historyMutable));
    }

    /** Remembers that {@code stored} decoded to {@code checkpoint}, which the caller keeps using. */
    public void put(String agentId, StoredDocument stored, AgentCheckpoint checkpoint) {
        boolean identity = byIdentity;
        if (!identity && learns) {
            lastArray = new WeakReference<>(stored.document());
        }
        if (!identity && stored.document().length > COMPARED_DOCUMENT_BYTES) {
            return;
        }
        boolean historyMutable = Isolation.historyHasContainer(checkpoint);
        boolean mutable = historyMutable || Isolation.hasContainerOutsideHistory(checkpoint);
        // Over a backend that hands back new arrays, a copy: nothing can change what later reads compare with.
        byte[] document = identity ? stored.document() : stored.document().clone();
        var entry = new Entry(
                stored.checkpointId(),
                stored.version(),
                document,
                mutable ? Isolation.copy(checkpoint, historyMutable) : checkpoint,
                mutable,
                historyMutable,
                identity);
        synchronized (byAgent) {
            byAgent.put(agentId, entry);
        }
        lastHit = new Hit(agentId, entry);
    }

    /** Forgets the agent's checkpoint. */
    public void forget(String agentId) {
        synchronized (byAgent) {
            byAgent.remove(agentId);
        }
        lastHit = null;
    }

    /** Forgets every agent's checkpoint. */
    public void clear() {
        synchronized (byAgent) {
            byAgent.clear();
        }
        lastHit = null;
    }

    private record Hit(String agentId, Entry entry) {}

    /**
     * A remembered record: its id, version and bytes (the backend's own array when it shares them, else a copy), what
     * it decoded to, and whether it is recognised by the identity of its array.
     */
    private record Entry(
            String checkpointId,
            long version,
            byte[] document,
            AgentCheckpoint checkpoint,
            boolean mutable,
            boolean historyMutable,
            boolean byIdentity) {
        boolean holds(StoredDocument stored) {
            if (byIdentity) {
                return document == stored.document();
            }
            return version == stored.version()
                    && Objects.equals(checkpointId, stored.checkpointId())
                    && Arrays.equals(document, stored.document());
        }
    }
}
