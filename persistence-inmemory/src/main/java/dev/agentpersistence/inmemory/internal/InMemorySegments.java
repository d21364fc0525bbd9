package dev.agentpersistence.inmemory.internal;

import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The history segments of every agent: agent id → segment id → bytes and write time. Each write is one atomic
 * {@code compute} on the agent's entry, so an agent whose last segment is deleted disappears without racing a
 * concurrent put. Bytes are copied in and out.
 */
public final class InMemorySegments implements HistorySegmentStore {
    private record Segment(byte[] content, Instant writtenAt) {}

    private final ConcurrentHashMap<String, ConcurrentSkipListMap<String, Segment>> agents = new ConcurrentHashMap<>();

    private final Clock clock;

    public InMemorySegments(Clock clock) {
        this.clock = clock;
    }

    /** Stores the segment unless present; records now as its write time either way. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        Instant now = clock.instant();
        agents.compute(agentId, (id, segments) -> {
            var map = segments == null ? new ConcurrentSkipListMap<String, Segment>() : segments;
            Segment existing = map.get(segmentId);
            map.put(segmentId, new Segment(existing == null ? content.clone() : existing.content(), now));
            return map;
        });
    }

    /** Copies of the stored bytes of the given ids that exist. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        var segments = agents.get(agentId);
        var found = new HashMap<String, byte[]>();
        if (segments != null) {
            for (String id : segmentIds) {
                Segment segment = segments.get(id);
                if (segment != null) {
                    found.put(id, segment.content().clone());
                }
            }
        }
        return found;
    }

    /** The agent's segments sorted by id. */
    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        var segments = agents.get(agentId);
        var infos = new ArrayList<SegmentInfo>();
        if (segments != null) {
            segments.forEach((id, segment) -> infos.add(new SegmentInfo(id, segment.writtenAt())));
        }
        return infos;
    }

    /** Deletes the given segments written before {@code writtenBefore}; returns how many. */
    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        int[] deleted = {0};
        agents.computeIfPresent(agentId, (id, segments) -> {
            for (String segmentId : segmentIds) {
                Segment segment = segments.get(segmentId);
                if (segment != null && segment.writtenAt().isBefore(writtenBefore)) {
                    segments.remove(segmentId);
                    deleted[0]++;
                }
            }
            return segments.isEmpty() ? null : segments;
        });
        return deleted[0];
    }

    /** The agents with segments, sorted. */
    @Override
    public List<String> listSegmentAgents() {
        var ids = new ArrayList<>(agents.keySet());
        ids.sort(null);
        return ids;
    }

    /** Drops everything. */
    public void clear() {
        agents.clear();
    }
}
