package dev.agentpersistence.backend;

import dev.agentpersistence.Identifiers;
import java.util.Objects;

/**
 * Where a store keeps the content parts it stores by reference: content-addressed blobs (id {@code blob-} and the
 * SHA-256 of the part's bytes in hex), kept in a {@link HistorySegmentStore} under one reserved agent id, shared by
 * every agent of the store. The store may be the provider's own segment area or another backend's
 * ({@code agent.persistence.blob-store}).
 *
 * @param segments the segment area holding the blobs, ids checked
 * @param agentId the reserved agent id the blobs are kept under
 * @param description where the blobs are, for messages; never a secret
 */
public record BlobArea(HistorySegmentStore segments, String agentId, String description) {
    public BlobArea {
        Objects.requireNonNull(segments, "segments");
        Identifiers.requireValid(agentId, "agentId");
        Objects.requireNonNull(description, "description");
    }
}
