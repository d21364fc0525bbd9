package dev.agentpersistence.storage.internal;

import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The segment area of a backend that has none: holds nothing, so a stored checkpoint that refers to segments reads as
 * missing them (a typed error, never a shortened history).
 */
public final class NoSegments implements HistorySegmentStore {

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        throw new UnsupportedOperationException("the backend has no history segment area");
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        return Map.of();
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        return List.of();
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        return 0;
    }

    @Override
    public List<String> listSegmentAgents() {
        return List.of();
    }
}
