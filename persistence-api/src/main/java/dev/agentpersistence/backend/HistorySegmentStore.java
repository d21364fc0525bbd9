package dev.agentpersistence.backend;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * An optional backend area of immutable, content-addressed blobs ("history segments") per agent, kept apart from the
 * checkpoints so that deleting checkpoints never removes what a kept checkpoint still needs
 * ({@link StorageBackend#segments()}). The storage shell stores the long, shared prefix of message histories here and
 * keeps only the newest messages in each checkpoint.
 *
 * <p>A segment id names its content: whoever puts a given id puts the same logical content. Hence {@link #putSegment}
 * of an existing id keeps the stored bytes and only records the new write time, which protects the segment from
 * {@link #deleteSegments} with an older cutoff (a save that reuses an old segment is never undercut by a concurrent
 * garbage collection).
 *
 * <p>Ids follow {@link dev.agentpersistence.Identifiers}; providers encode agent and segment ids as they do checkpoint
 * ids. Implementations are thread-safe and, like checkpoint saves, atomic: a segment is either completely stored or
 * absent, also across a crash. The {@code StorageProviderCompatibilityKit} checks implementations in its
 * {@code Segments} group.
 */
public interface HistorySegmentStore {

    /**
     * Stores a segment unless one with this id exists; either way records now as its write time. Never replaces the
     * bytes of an existing segment.
     */
    void putSegment(String agentId, String segmentId, byte[] content);

    /**
     * The stored bytes of the given segments, keyed by id; ids that are not stored are absent from the map. Providers
     * fetch them in as few round trips as the backend allows (one where it can).
     */
    Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds);

    /** Every segment of the agent with its last write time, sorted by id. */
    List<SegmentInfo> listSegments(String agentId);

    /**
     * Deletes those of the given segments whose last write time is strictly before {@code writtenBefore}, and returns
     * how many were deleted. A segment written again after the caller listed it is thereby kept. Ids that are not
     * stored are ignored.
     */
    int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore);

    /** The ids of agents with at least one segment, sorted (also agents without checkpoints). */
    List<String> listSegmentAgents();
}
