package dev.agentpersistence.backend;

import dev.agentpersistence.CheckpointFilter;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One checkpoint as a {@link StorageBackend} stores it: its identity, the attributes filters run on, and the stored
 * document, which the backend keeps as opaque bytes and never interprets.
 *
 * <p>The attributes are computed by the storage shell: {@code nodeId} and {@code metadata} hold the values filters
 * compare for equality, in the form the shell chose (today the plain values; keyed hashes where the shell hides them),
 * so a backend stores and compares them as given. The shell never passes its own reserved metadata entries as
 * attributes.
 *
 * @param agentId the agent (any valid id; the backend encodes it for its keys or paths)
 * @param checkpointId the checkpoint id, unique per agent
 * @param version the version, unique per agent
 * @param createdAt creation time, compared by filters at the backend's precision; the exact value is inside the
 *     document
 * @param expiresAt when the record may be deleted by {@link Expiry#deleteExpired}, or {@code null} for never
 * @param nodeId the node attribute, or {@code null}
 * @param tombstone whether the checkpoint marks a completed run
 * @param metadata the metadata attributes, every one of which a filter's metadata must match
 * @param document the stored bytes (an array: records compare by identity, not content)
 */
public record StoredCheckpoint(
        String agentId,
        String checkpointId,
        long version,
        Instant createdAt,
        Instant expiresAt,
        String nodeId,
        boolean tombstone,
        Map<String, String> metadata,
        byte[] document) {
    public StoredCheckpoint {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(checkpointId, "checkpointId");
        Objects.requireNonNull(createdAt, "createdAt");
        metadata = Map.copyOf(Objects.requireNonNull(metadata, "metadata"));
        Objects.requireNonNull(document, "document");
    }

    /**
     * Whether this record matches every field of {@code filter} except {@code limit}: for backends that evaluate part
     * of a filter in code after an indexed look-up (the fields must still narrow what is read; no backend reads all of
     * an agent's records to filter them).
     */
    public boolean matches(CheckpointFilter filter) {
        return (filter.nodeId() == null || filter.nodeId().equals(nodeId))
                && (filter.createdAfter() == null || !createdAt.isBefore(filter.createdAfter()))
                && (filter.createdBefore() == null || createdAt.isBefore(filter.createdBefore()))
                && (filter.maxVersion() == null || version <= filter.maxVersion())
                && (filter.includeTombstones() || !tombstone)
                && metadata.entrySet().containsAll(filter.metadata().entrySet());
    }

    /** The number of stored bytes. */
    public int size() {
        return document.length;
    }

    /** This record with other stored bytes. */
    public StoredCheckpoint withDocument(byte[] otherDocument) {
        return new StoredCheckpoint(
                agentId, checkpointId, version, createdAt, expiresAt, nodeId, tombstone, metadata, otherDocument);
    }

    /** What a read of this record returns. */
    public StoredDocument toDocument() {
        return new StoredDocument(agentId, checkpointId, version, document);
    }

    @Override
    public String toString() {
        return "StoredCheckpoint[agentId=" + agentId + ", checkpointId=" + checkpointId + ", version=" + version
                + ", createdAt=" + createdAt + ", " + document.length + " bytes]";
    }
}
