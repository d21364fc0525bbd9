package dev.agentpersistence.history.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The message log entries a history was assembled from, for the cache.
 *
 * @param entries the entries in order, contiguous from message 0
 * @param chains the hash chain value after each entry
 * @param written the last write time of each entry, {@code null} where the read did not learn it
 * @param owners the agent whose log holds each entry, {@code null} for the agent's own
 */
public record LogPath(List<LogEntryId> entries, List<byte[]> chains, List<Instant> written, List<String> owners) {
    public LogPath {
        entries = List.copyOf(entries);
        chains = List.copyOf(chains);
        written = Collections.unmodifiableList(new ArrayList<>(written));
        owners = Collections.unmodifiableList(new ArrayList<>(owners));
    }
}
