package dev.agentpersistence.backend;

import dev.agentpersistence.CheckpointFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a provider built on the storage shell ({@link dev.agentpersistence.storage.StorageShell}) shows of the form it
 * stores and lets a caller tidy: the stored documents with their sizes (for inspection and verification without
 * decoding), the history segment area, and the collection of segments no stored checkpoint needs any more. Reached
 * through {@link dev.agentpersistence.PersistenceStorageProvider#storedForm()}; every call checks its ids and the
 * provider's closed state like the provider's own calls.
 */
public interface StoredForm {

    /** What new documents are written with: their layers and whether histories go to segments. */
    WrittenForm writes();

    /** The name the provider's observations are tagged with ({@code provider}), e.g. {@code jdbc}. */
    String providerName();

    /** What and where the store is, credentials hidden ({@link StorageBackend#describe()}). */
    String description();

    /**
     * The agent's stored documents matching {@code filter}'s versions and limit, ascending by version, as stored
     * (undecoded). Attribute fields of the filter other than versions and limit are ignored.
     */
    List<StoredDocument> documents(String agentId, CheckpointFilter filter);

    /**
     * Every agent of the store with its checkpoint count, stored bytes and latest checkpoint, sorted by agent id: what
     * {@link #documents} and the provider's {@code getLatestCheckpoint} give for each agent of {@code listAgents()},
     * read in one pass where the backend offers one ({@link StorageBackend#agentSummaries()}).
     */
    List<AgentSummary> agentSummaries();

    /** Where a record is or would be stored (a path, a table row, a key), for messages; never a secret. */
    String location(String agentId, String checkpointId);

    /** The history segment area, ids checked; an empty area refusing writes when the store has none. */
    HistorySegmentStore segments();

    /** Whether the store has a history segment area. */
    boolean hasSegments();

    /**
     * Deletes the agent's segments that no stored checkpoint references and that were last written before
     * {@code writtenBefore}; returns how many (0 without a segment area).
     */
    int collectGarbage(String agentId, Instant writtenBefore);

    /** The agents that have segments, sorted; includes agents whose checkpoints are all gone. */
    List<String> listSegmentAgents();

    /** How long a segment is spared after it was written, so a save in flight never loses one. */
    Duration gracePeriod();

    /**
     * Where the store keeps the parts it stores by reference (content-addressed blobs shared by all its agents), when
     * it stores parts by reference; empty otherwise.
     */
    default Optional<BlobArea> blobArea() {
        return Optional.empty();
    }

    /**
     * Deletes the blobs of {@link #blobArea()} that no stored checkpoint or segment of any agent references and that
     * were last written before {@code writtenBefore}; returns how many (0 without a blob area). Reads every agent's
     * stored records, so it runs in a retention sweep, not after each deletion; a record it cannot read stops it before
     * anything is deleted.
     */
    default int collectBlobs(Instant writtenBefore) {
        return 0;
    }
}
