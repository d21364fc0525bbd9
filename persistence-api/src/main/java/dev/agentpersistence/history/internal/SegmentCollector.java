package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Garbage collection of one agent's segments: lists them, keeps those written at or after the cutoff (they may belong
 * to a save in flight), marks every segment a stored checkpoint of the agent references, and deletes the rest with the
 * same cutoff, so that a segment written again in the meantime survives.
 */
public final class SegmentCollector {
    private final PersistenceStorageProvider<CheckpointFilter> checkpoints;
    private final HistorySegmentStore store;
    private final HistoryReader reader;

    /** @param checkpoints the provider holding the stored (not reassembled) checkpoints */
    public SegmentCollector(
            PersistenceStorageProvider<CheckpointFilter> checkpoints, HistorySegmentStore store, HistoryReader reader) {
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.store = Objects.requireNonNull(store, "store");
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /** Deletes the agent's unreferenced segments last written before {@code writtenBefore}; returns how many. */
    public int collect(String agentId, Instant writtenBefore) {
        Set<String> candidates = new LinkedHashSet<>();
        for (SegmentInfo segment : store.listSegments(agentId)) {
            if (segment.writtenAt().isBefore(writtenBefore)) {
                candidates.add(segment.segmentId());
            }
        }
        if (candidates.isEmpty()) {
            return 0;
        }
        for (AgentCheckpoint stored : checkpoints.getCheckpoints(agentId, null)) {
            HistoryDescriptor descriptor = reader.descriptor(stored);
            if (descriptor != null) {
                descriptor.segmentIds().forEach(candidates::remove);
            }
        }
        return candidates.isEmpty() ? 0 : store.deleteSegments(agentId, candidates, writtenBefore);
    }
}
