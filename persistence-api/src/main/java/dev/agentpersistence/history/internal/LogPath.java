package dev.agentpersistence.history.internal;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The message log entries a history was assembled from, for the cache.
 *
 * @param entries the entries in order, contiguous from message 0
 * @param chains the hash chain value after each entry
 * @param written the last write time of entries, by id text, where the read learnt it
 */
public record LogPath(List<LogEntryId> entries, List<byte[]> chains, Map<String, Instant> written) {
    public LogPath {
        entries = List.copyOf(entries);
        chains = List.copyOf(chains);
        written = Map.copyOf(written);
    }
}
