package dev.agentpersistence.history.internal;

import java.time.Instant;
import java.util.List;

/**
 * The message log entries a history was assembled from, for the cache.
 *
 * @param entries the entries in order, contiguous from message 0
 * @param chains the hash chain value after each entry
 * @param written the last write time of each entry, {@code null} where the read did not learn it
 */
public record LogPath(List<LogEntryId> entries, List<byte[]> chains, List<Instant> written) {
    public LogPath {
        entries = List.copyOf(entries);
        chains = List.copyOf(chains);
        written = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(written));
    }
}
