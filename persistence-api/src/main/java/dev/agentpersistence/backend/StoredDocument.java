package dev.agentpersistence.backend;

import java.util.Objects;

/**
 * A stored checkpoint as a {@link StorageBackend} reads it back: which checkpoint it is and its stored bytes. The
 * filter attributes are not needed on the way back: the storage shell reads every field from the document, and checks
 * that it belongs to this agent and checkpoint.
 *
 * @param agentId the agent the record is filed under
 * @param checkpointId the checkpoint id the record is filed under, or {@code null} when the backend files it by version
 *     only (the shell then checks the version alone)
 * @param version the version the record is filed under
 * @param document the stored bytes, as inserted
 * @param location where it was read from, for errors, or {@code null} for {@link StorageBackend#location(String,
 *     String)}
 */
public record StoredDocument(String agentId, String checkpointId, long version, byte[] document, String location) {
    public StoredDocument {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(document, "document");
    }

    /** A document filed under its agent, checkpoint id and version. */
    public StoredDocument(String agentId, String checkpointId, long version, byte[] document) {
        this(agentId, checkpointId, version, document, null);
    }

    /** The number of stored bytes. */
    public int size() {
        return document.length;
    }

    @Override
    public String toString() {
        return "StoredDocument[agentId=" + agentId + ", checkpointId=" + checkpointId + ", version=" + version + ", "
                + document.length + " bytes]";
    }
}
