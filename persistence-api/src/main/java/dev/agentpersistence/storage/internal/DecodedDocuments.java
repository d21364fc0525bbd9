package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.internal.Isolation;
import dev.agentpersistence.internal.LruMaps;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The checkpoint last read per agent (decoded, history assembled) and the stored record it came from, so that reading
 * the same record again costs a comparison instead of a decode. Over a backend whose arrays never change while their
 * record exists ({@link StorageBackend#sharesDocuments()}) the record is recognised by the identity of its array, for
 * up to the given number of agents. Over any other backend it is recognised by its version, id and content (each read
 * hands back a new array; equal bytes under the same version and id decode to the same checkpoint), for fewer agents
 * ({@value #COMPARED_AGENTS}) and documents of at most {@value #COMPARED_DOCUMENT_BYTES} bytes, so what is kept stays
 * small. Hands out copies no caller shares ({@link Isolation}): the remembered checkpoint itself when it holds no
 * mutable JSON node. Keeps the most recently used agents; thread-safe.
 */
public final class DecodedDocuments {
    /** Agents remembered over a backend that hands back new arrays. */
    static final int COMPARED_AGENTS = 128;
    /** The largest document remembered over such a backend (larger ones are decoded at every read). */
    static final int COMPARED_DOCUMENT_BYTES = 16 * 1024;

    private final boolean byIdentity;
    private final Map<String, Entry> byAgent;

    private DecodedDocuments(boolean byIdentity, int maxAgents) {
        this.byIdentity = byIdentity;
        this.byAgent = LruMaps.bounded(maxAgents);
    }

    /**
     * Remembers checkpoints read over {@code backend}: by the identity of their arrays for up to {@code maxAgents}
     * agents when it {@linkplain StorageBackend#sharesDocuments() shares its stored arrays}, else by their content, for
     * up to {@value #COMPARED_AGENTS}.
     */
    public static DecodedDocuments over(StorageBackend backend, int maxAgents) {
        return backend.sharesDocuments() ? byIdentity(maxAgents) : byContent(maxAgents);
    }

    /** Recognises records by the identity of their arrays, for up to {@code maxAgents} agents. */
    static DecodedDocuments byIdentity(int maxAgents) {
        return new DecodedDocuments(true, maxAgents);
    }

    /**
     * Recognises records by version, id and content, for up to {@code maxAgents} (at most {@value #COMPARED_AGENTS}).
     */
    static DecodedDocuments byContent(int maxAgents) {
        return new DecodedDocuments(false, Math.min(maxAgents, COMPARED_AGENTS));
    }

    /** An isolated copy of what {@code stored} decoded to, when it is the record last decoded for the agent. */
    public Optional<AgentCheckpoint> get(String agentId, StoredDocument stored) {
        Entry entry;
        synchronized (byAgent) {
            entry = byAgent.get(agentId);
        }
        if (entry == null || !entry.holds(stored, byIdentity)) {
            return Optional.empty();
        }
        if (!entry.mutable) {
            return Optional.of(entry.checkpoint);
        }
        return Optional.of(Isolation.copy(entry.checkpoint, entry.historyMutable));
    }

    /** Remembers that {@code stored} decoded to {@code checkpoint}, which the caller keeps using. */
    public void put(String agentId, StoredDocument stored, AgentCheckpoint checkpoint) {
        if (!byIdentity && stored.document().length > COMPARED_DOCUMENT_BYTES) {
            return;
        }
        boolean historyMutable = Isolation.historyHasContainer(checkpoint);
        boolean mutable = historyMutable || Isolation.hasContainerOutsideHistory(checkpoint);
        // Over a backend that hands back new arrays, a copy: nothing can change what later reads compare with.
        byte[] document = byIdentity ? stored.document() : stored.document().clone();
        var entry = new Entry(
                stored.checkpointId(),
                stored.version(),
                document,
                mutable ? Isolation.copy(checkpoint, historyMutable) : checkpoint,
                mutable,
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

    /**
     * A remembered record: its id, version and bytes (the backend's own array when it shares them, else a copy) and
     * what it decoded to.
     */
    private record Entry(
            String checkpointId,
            long version,
            byte[] document,
            AgentCheckpoint checkpoint,
            boolean mutable,
            boolean historyMutable) {
        boolean holds(StoredDocument stored, boolean byIdentity) {
            if (byIdentity) {
                return document == stored.document();
            }
            return version == stored.version()
                    && Objects.equals(checkpointId, stored.checkpointId())
                    && Arrays.equals(document, stored.document());
        }
    }
}
