package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
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
        List<SegmentInfo> listing = store.listSegments(agentId);
        for (SegmentInfo segment : listing) {
            if (segment.writtenAt().isBefore(writtenBefore)) {
                candidates.add(segment.segmentId());
            }
        }
        if (candidates.isEmpty()) {
            return 0;
        }
        LogIndex log = null;
        var kept = new HashSet<String>();
        for (AgentCheckpoint stored : checkpoints.getCheckpoints(agentId, null)) {
            HistoryReference reference = reader.descriptor(stored);
            if (reference instanceof HistoryDescriptor descriptor) {
                descriptor.segmentIds().forEach(candidates::remove);
            } else if (reference instanceof LogDescriptor descriptor) {
                if (log == null) {
                    log = new LogIndex(listing);
                }
                keepPath(log, descriptor.last(), kept);
            }
        }
        candidates.removeAll(kept);
        return candidates.isEmpty() ? 0 : store.deleteSegments(agentId, candidates, writtenBefore);
    }

    /**
     * Adds every entry on the path ending with {@code last} to {@code kept}; where a link is ambiguous, all of them.
     */
    private static void keepPath(LogIndex log, LogEntryId last, Set<String> kept) {
        var pending = new ArrayDeque<LogEntryId>();
        pending.push(last);
        while (!pending.isEmpty()) {
            LogEntryId entry = pending.pop();
            if (kept.add(entry.text()) && entry.from() > 0) {
                log.predecessors(entry).forEach(pending::push);
            }
        }
    }
}
