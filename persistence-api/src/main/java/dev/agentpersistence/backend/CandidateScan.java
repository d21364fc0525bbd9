package dev.agentpersistence.backend;

import dev.agentpersistence.CheckpointFilter;
import java.util.Iterator;

/**
 * How a backend that keeps the attribute fields of a filter ({@code nodeId}, {@code createdAfter},
 * {@code createdBefore}, {@code metadata}, {@code includeTombstones}) only inside its documents, or only as a lossy
 * index, answers a filter on them: it hands the storage shell candidates, and the shell decodes and checks them itself,
 * stopping at the limit. A backend that has one returns it from {@link StorageBackend#candidateScan()}; the shell then
 * calls that backend's {@link StorageBackend#list} and {@link StorageBackend#latest} only with filters on versions and
 * limits.
 */
@FunctionalInterface
public interface CandidateScan {

    /**
     * The agent's records that may match {@code filter} — every match and perhaps others, never one above
     * {@code maxVersion} — newest first, read lazily as the caller advances (see {@link NewestFirstWalk}).
     */
    Iterator<StoredDocument> candidates(String agentId, CheckpointFilter filter);
}
