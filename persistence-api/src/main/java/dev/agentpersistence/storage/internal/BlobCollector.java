package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.history.internal.ForkMarker;
import dev.agentpersistence.history.internal.SegmentCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Garbage collection of a store's blobs: lists them, keeps those written at or after the cutoff (a save in flight may
 * not have stored its record yet), marks every blob a stored checkpoint or segment of any agent references (read
 * without resolving; under each name the blob may have), and deletes the rest with the same cutoff, so that a blob put
 * again in the meantime survives. A record that cannot be read stops the collection before anything is deleted.
 */
public final class BlobCollector {
    private static final int SEGMENTS_PER_READ = 64;

    private final BlobArea area;
    private final BlobNames names;
    private final Supplier<List<String>> agents;
    private final Function<String, List<AgentCheckpoint>> storedForms;
    private final HistorySegmentStore segments;
    private final SegmentCodec segmentCodec;
    private final String location;

    /**
     * @param names the names blobs are kept under
     * @param agents every agent with checkpoints or segments in the store whose records may reference the blobs
     * @param storedForms an agent's stored checkpoints, decoded but not resolved
     * @param segmentCodec decodes segments without resolving their references
     */
    public BlobCollector(
            BlobArea area,
            BlobNames names,
            Supplier<List<String>> agents,
            Function<String, List<AgentCheckpoint>> storedForms,
            HistorySegmentStore segments,
            SegmentCodec segmentCodec,
            String location) {
        this.area = Objects.requireNonNull(area, "area");
        this.names = Objects.requireNonNull(names, "names");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.storedForms = Objects.requireNonNull(storedForms, "storedForms");
        this.segments = Objects.requireNonNull(segments, "segments");
        this.segmentCodec = Objects.requireNonNull(segmentCodec, "segmentCodec");
        this.location = Objects.requireNonNull(location, "location");
    }

    /** Deletes the unreferenced blobs last written before {@code writtenBefore}; returns how many. */
    public int collect(Instant writtenBefore) {
        Set<String> candidates = new LinkedHashSet<>();
        for (SegmentInfo blob : area.segments().listSegments(area.agentId())) {
            if (blob.writtenAt().isBefore(writtenBefore)) {
                candidates.add(blob.segmentId());
            }
        }
        if (candidates.isEmpty()) {
            return 0;
        }
        var referenced = new HashSet<String>();
        for (String agentId : new TreeSet<>(agents.get())) {
            if (agentId.equals(area.agentId())) {
                continue;
            }
            for (AgentCheckpoint stored : storedForms.apply(agentId)) {
                var where = new CheckpointLocation(agentId, stored.checkpointId(), location);
                BlobCodec.references(stored, where).forEach(r -> referenced.addAll(names.candidates(r)));
            }
            markSegments(agentId, referenced);
        }
        candidates.removeAll(referenced);
        return candidates.isEmpty() ? 0 : area.segments().deleteSegments(area.agentId(), candidates, writtenBefore);
    }

    private void markSegments(String agentId, Set<String> referenced) {
        var ids = new ArrayList<String>();
        for (SegmentInfo segment : segments.listSegments(agentId)) {
            if (!ForkMarker.isMarker(segment.segmentId())) {
                ids.add(segment.segmentId());
            }
        }
        for (int from = 0; from < ids.size(); from += SEGMENTS_PER_READ) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + SEGMENTS_PER_READ));
            Map<String, byte[]> stored = segments.getSegments(agentId, batch);
            for (var segment : stored.entrySet()) {
                var messages = segmentCodec.storedMessages(agentId, segment.getKey(), segment.getValue(), location);
                var where = new CheckpointLocation(agentId, segment.getKey(), location);
                BlobCodec.references(messages, where).forEach(r -> referenced.addAll(names.candidates(r)));
            }
        }
    }
}
