package dev.agentpersistence.history.internal;

import dev.agentpersistence.backend.SegmentInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The message log entries of one segment listing, found by where they end, so that the path of a history can be
 * followed back from its last entry without reading any content. Ids that are not log entry ids (tiered segments) are
 * left out.
 */
final class LogIndex {
    private final Map<Integer, List<LogEntryId>> byEnd = new HashMap<>();
    private final Map<String, Instant> writtenAt = new HashMap<>();

    LogIndex(List<SegmentInfo> listing) {
        for (SegmentInfo segment : listing) {
            String id = segment.segmentId();
            if (!LogEntryId.isLogEntryId(id)) {
                continue;
            }
            LogEntryId entry;
            try {
                entry = LogEntryId.parse(id);
            } catch (IllegalArgumentException e) {
                continue; // not written by this library: no checkpoint can name it
            }
            byEnd.computeIfAbsent(entry.to(), to -> new ArrayList<>()).add(entry);
            writtenAt.put(id, segment.writtenAt());
        }
    }

    /** The entries {@code next} may follow: those ending where it starts whose chain value starts with its link. */
    List<LogEntryId> predecessors(LogEntryId next) {
        var found = new ArrayList<LogEntryId>(1);
        for (LogEntryId entry : byEnd.getOrDefault(next.from(), List.of())) {
            if (entry.precedes(next)) {
                found.add(entry);
            }
        }
        return found;
    }

    /** When the entry was last written, or {@code null} when the listing did not hold it. */
    Instant writtenAt(LogEntryId entry) {
        return writtenAt.get(entry.text());
    }
}
