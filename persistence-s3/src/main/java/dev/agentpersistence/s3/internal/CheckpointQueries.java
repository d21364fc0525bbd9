package dev.agentpersistence.s3.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads checkpoints, walking keys newest first and stopping as soon as the filter's limit is met.
 * A filter on version and limit only walks the bodies ({@code v/A/}, one listing call per 1,000
 * versions, bounded by {@code StartAfter}); any other field walks the index entries
 * ({@code x/A/}), rejects entries whose attributes cannot match without any request, and reads the
 * body only of the remaining candidates, checking the whole filter on it.
 */
public final class CheckpointQueries {
    private final CheckpointStore store;

    public CheckpointQueries(CheckpointStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The matches of {@code filter}, ascending by version. */
    public List<AgentCheckpoint> list(String agentId, CheckpointFilter filter) {
        int limit = filter.limit() == null ? Integer.MAX_VALUE : filter.limit();
        var newestFirst = onlyVersionBound(filter)
                ? walkBodies(agentId, filter.maxVersion(), limit)
                : walkIndex(agentId, filter, limit);
        Collections.reverse(newestFirst);
        return List.copyOf(newestFirst);
    }

    /** The match of {@code filter} with the highest version. */
    public Optional<AgentCheckpoint> latest(String agentId, CheckpointFilter filter) {
        var newest = onlyVersionBound(filter)
                ? walkBodies(agentId, filter.maxVersion(), 1)
                : walkIndex(agentId, filter, 1);
        return newest.stream().findFirst();
    }

    /** The checkpoint with {@code checkpointId}: its id marker names the version, whose body must hold that id. */
    public Optional<AgentCheckpoint> byId(String agentId, String checkpointId) {
        String agent = Segments.encode(agentId);
        return store.readMarker(agentId, agent, Segments.encode(checkpointId))
                .filter(marker -> marker.checkpointId().equals(checkpointId))
                .flatMap(marker -> store.readBody(agentId, agent, marker.version()))
                .filter(checkpoint -> checkpoint.checkpointId().equals(checkpointId));
    }

    private static boolean onlyVersionBound(CheckpointFilter filter) {
        return filter.nodeId() == null && filter.createdAfter() == null && filter.createdBefore() == null
                && filter.metadata().isEmpty() && filter.includeTombstones();
    }

    private List<AgentCheckpoint> walkBodies(String agentId, Long maxVersion, int limit) {
        String agent = Segments.encode(agentId);
        KeyLayout layout = store.layout();
        Iterator<String> keys = store.objects().keys(layout.bodyFolder(agent), layout.bodiesUpTo(agent, maxVersion),
                limit);
        var found = new ArrayList<AgentCheckpoint>();
        while (found.size() < limit && keys.hasNext()) {
            long version;
            try {
                version = layout.versionOfBody(agent, keys.next());
            } catch (NumberFormatException e) {
                continue; // not an object of this layout
            }
            store.readBody(agentId, agent, version).ifPresent(found::add); // absent: deleted since listed
        }
        return found;
    }

    private List<AgentCheckpoint> walkIndex(String agentId, CheckpointFilter filter, int limit) {
        String agent = Segments.encode(agentId);
        KeyLayout layout = store.layout();
        Predicate<IndexEntry> candidate = IndexEntry.prefilter(filter);
        Iterator<String> keys = store.objects().keys(layout.indexFolder(agent),
                layout.indexUpTo(agent, filter.maxVersion()), S3Objects.PAGE);
        var found = new ArrayList<AgentCheckpoint>();
        long lastRead = -1;
        while (found.size() < limit && keys.hasNext()) {
            IndexEntry entry = layout.indexEntryOf(agent, keys.next());
            if (entry == null || entry.version() == lastRead || !candidate.test(entry)) {
                continue;
            }
            // Several entries may name one version (left by saves that lost); its body decides once.
            lastRead = entry.version();
            store.readBody(agentId, agent, entry.version()).filter(filter::matches).ifPresent(found::add);
        }
        return found;
    }
}
