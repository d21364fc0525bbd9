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
 *
 * <p>Forks whose histories start in this agent's log are named by {@link ForkMarker}s in it: the entries a fork's
 * stored checkpoints reference through their {@link LogBase}s are kept too. A marker of a fork that references nothing
 * here any more is deleted with the rest; while a marker is younger than the cutoff and its fork has no checkpoint yet
 * (a fork in flight), nothing of this agent is collected.
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
        var log = new LogIndex(listing);
        var kept = new HashSet<String>();
        for (AgentCheckpoint stored : checkpoints.getCheckpoints(agentId, null)) {
            HistoryReference reference = reader.descriptor(stored);
            if (reference instanceof HistoryDescriptor descriptor) {
                descriptor.segmentIds().forEach(candidates::remove);
            } else if (reference instanceof LogDescriptor descriptor) {
                keepPath(log, descriptor.last(), kept);
            }
        }
        if (!keepForks(agentId, listing, writtenBefore, log, kept)) {
            return 0;
        }
        candidates.removeAll(kept);
        return candidates.isEmpty() ? 0 : store.deleteSegments(agentId, candidates, writtenBefore);
    }

    /**
     * Adds to {@code kept} the entries of this agent's log that the forks its markers name reference, and the markers
     * of forks that still reference some; false when a fork is in flight (a young marker whose fork has no checkpoint).
     */
    private boolean keepForks(
            String agentId, List<SegmentInfo> listing, Instant writtenBefore, LogIndex log, Set<String> kept) {
        var markers = new LinkedHashSet<String>();
        var young = new HashSet<String>();
        for (SegmentInfo segment : listing) {
            if (ForkMarker.isMarker(segment.segmentId())) {
                markers.add(segment.segmentId());
                if (!segment.writtenAt().isBefore(writtenBefore)) {
                    young.add(segment.segmentId());
                }
            }
        }
        if (markers.isEmpty()) {
            return true;
        }
        for (var marker : store.getSegments(agentId, markers).entrySet()) {
            String fork = ForkMarker.forkOf(marker.getKey(), marker.getValue());
            if (fork == null) {
                continue; // not written by this library: it protects nothing
            }
            boolean referenced = false;
            for (AgentCheckpoint stored : checkpoints.getCheckpoints(fork, null)) {
                if (reader.descriptor(stored) instanceof LogDescriptor descriptor) {
                    for (LogBase base : descriptor.bases()) {
                        if (base.agentId().equals(agentId)) {
                            keepPath(log, base.last(), kept);
                            referenced = true;
                        }
                    }
                }
            }
            if (referenced) {
                kept.add(marker.getKey());
            } else if (young.contains(marker.getKey())) {
                return false;
            }
        }
        return true;
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
