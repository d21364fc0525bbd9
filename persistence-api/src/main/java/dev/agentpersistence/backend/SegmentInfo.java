package dev.agentpersistence.backend;

import dev.agentpersistence.Identifiers;
import java.time.Instant;
import java.util.Objects;

/**
 * One stored history segment, as listed by {@link HistorySegmentStore#listSegments}.
 *
 * @param segmentId the segment's id
 * @param writtenAt when the segment was last put (created or written again); backends with a coarser clock report it at
 *     their precision
 */
public record SegmentInfo(String segmentId, Instant writtenAt) {
    public SegmentInfo {
        Identifiers.requireValid(segmentId, "segmentId");
        Objects.requireNonNull(writtenAt, "writtenAt");
    }
}
