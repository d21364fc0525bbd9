package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.NewestFirstWalk;
import dev.agentpersistence.backend.StoredDocument;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads checkpoints: the latest through the agent's {@link LatestPointer} when it can answer, else walking keys newest
 * first and stopping as soon as the caller has enough. A filter on version and limit walks the bodies ({@code v/A/},
 * one listing call per 1,000 versions, bounded by {@code StartAfter}); any other field walks the index entries
 * ({@code x/A/}), rejects entries whose attributes cannot match without any request, and reads the body of the
 * remaining candidates, which the storage shell checks against the whole filter (node ids and metadata are only hashed
 * in the keys).
 *
 * <p>A walk never misses a checkpoint because of a concurrent deletion: when a listed body is gone before anything was
 * returned, the listing starts again at once from the newest key (a deletion of older versions happens after the newer
 * version was committed, so the new listing holds it).
 */
public final class CheckpointQueries {
    /** Listings a walk may start while every body it tried has just been deleted. */
    private static final int MAX_LISTINGS = 64;
    /**
     * Listings a walk may start when it found only objects that are not bodies: an S3-compatible store may list a PUT
     * in flight under a temporary name in place of the body it is about to become.
     */
    private static final int MAX_LISTINGS_PAST_FOREIGN_KEYS = 3;

    /** Agents whose latest version found is remembered. */
    private static final int REMEMBERED = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointQueries.class);

    private final CheckpointObjects store;
    private final LatestPointer pointer;
    private final OverlappedRequests requests;
    /** The version at which {@link #latest} last found each agent's latest (for a bounded number of agents). */
    private final RecentlyUsed<String, Long> latestFound = new RecentlyUsed<>(REMEMBERED);

    private final boolean readOnly;

    /** Queries sending their requests one by one. */
    public CheckpointQueries(CheckpointObjects store) {
        this(store, OverlappedRequests.inline(), false);
    }

    /**
     * Queries whose independent requests overlap through {@code requests}; {@code readOnly} ones never write a missing
     * latest pointer.
     */
    CheckpointQueries(CheckpointObjects store, OverlappedRequests requests, boolean readOnly) {
        this.readOnly = readOnly;
        this.requests = Objects.requireNonNull(requests, "requests");
        this.store = Objects.requireNonNull(store, "store");
        this.pointer = new LatestPointer(store);
    }

    /** Up to {@code limit} checkpoints with a version up to {@code maxVersion} ({@code null}: all), ascending. */
    public List<StoredDocument> list(String agentId, Long maxVersion, int limit) {
        return new BodyWalk(agentId, maxVersion, limit).newestAscending(limit);
    }

    /**
     * The checkpoint with the highest version up to {@code maxVersion}: the body the agent's {@link LatestPointer}
     * names when it is within the bound and that body exists (no body is newer), else the newest body listed. A missing
     * or unreadable pointer is then written (best effort: a reader without write access still answers).
     *
     * <p>When this reader last found the agent's latest at version {@code V} (within the bound), the body of {@code V}
     * is read at the same time as the pointer, and used only when the pointer still names {@code V}: an unchanged
     * agent's latest then costs one round trip instead of two. When the pointer moved, that read is wasted and the
     * named body is read as before.
     */
    public Optional<StoredDocument> latest(String agentId, Long maxVersion) {
        String agent = KeyParts.encode(agentId);
        Long expected = latestFound.get(agent);
        OverlappedRequests.Pending<Optional<StoredDocument>> guess =
                expected != null && (maxVersion == null || expected <= maxVersion)
                        ? requests.start(() -> store.readBody(agentId, agent, expected))
                        : null;
        OptionalLong pointed;
        try {
            pointed = pointer.read(agent);
        } catch (RuntimeException | Error e) {
            if (guess != null) {
                guess.awaitQuietly(e);
            }
            throw e;
        }
        if (pointed.isPresent() && (maxVersion == null || pointed.getAsLong() <= maxVersion)) {
            long version = pointed.getAsLong();
            Optional<StoredDocument> body;
            if (guess != null && expected == version) {
                body = guess.join();
            } else {
                if (guess != null) {
                    guess.awaitQuietly(null);
                }
                body = store.readBody(agentId, agent, version);
            }
            if (body.isPresent()) {
                latestFound.put(agent, version);
                return body;
            }
        } else if (guess != null) {
            guess.awaitQuietly(null);
        }
        latestFound.remove(agent);
        var walk = new BodyWalk(agentId, maxVersion, 1);
        Optional<StoredDocument> newest = walk.hasNext() ? Optional.of(walk.next()) : Optional.empty();
        if (pointed.isEmpty() && newest.isPresent() && !readOnly) {
            repair(agent, newest.get().version());
        }
        return newest;
    }

    private void repair(String agent, long version) {
        try {
            pointer.raise(agent, version);
        } catch (PersistenceException e) {
            LOG.debug("Could not write the latest pointer of agent segment {}: {}", agent, e.getMessage());
        }
    }

    /** The checkpoints that may match {@code filter}, newest first (see the class comment). */
    public Iterator<StoredDocument> candidates(String agentId, CheckpointFilter filter) {
        return onlyVersionBound(filter)
                ? new BodyWalk(agentId, filter.maxVersion(), S3Objects.PAGE)
                : new IndexWalk(agentId, filter);
    }

    /**
     * The checkpoint with {@code checkpointId}: its id marker names the version, whose body must hold that id. A body
     * holding another checkpoint of that version is a newer save after a deletion (the marker is stale: empty); a body
     * holding a checkpoint of another version was replaced, and is a {@link CorruptCheckpointException} naming the
     * checkpoint and the body, as every other read of that body reports it.
     */
    public Optional<StoredDocument> byId(String agentId, String checkpointId) {
        String agent = KeyParts.encode(agentId);
        return store.readMarker(agentId, agent, KeyParts.encode(checkpointId))
                .filter(marker -> marker.checkpointId().equals(checkpointId))
                .flatMap(marker -> store.readBody(agentId, agent, marker.version()))
                .filter(body -> holds(body, checkpointId))
                .map(body ->
                        new StoredDocument(agentId, checkpointId, body.version(), body.document(), body.location()));
    }

    private boolean holds(StoredDocument body, String checkpointId) {
        DocumentIdentity.Identity held = store.identityOf(body);
        if (held.version() != body.version()) {
            throw new CorruptCheckpointException(
                    body.agentId(),
                    checkpointId,
                    body.location(),
                    "the body filed as version " + body.version() + " of checkpoint '" + checkpointId
                            + "' holds checkpoint '" + held.checkpointId() + "' of version " + held.version(),
                    null);
        }
        return held.checkpointId().equals(checkpointId);
    }

    private static boolean onlyVersionBound(CheckpointFilter filter) {
        return filter.nodeId() == null
                && filter.createdAfter() == null
                && filter.createdBefore() == null
                && filter.metadata().isEmpty()
                && filter.includeTombstones();
    }

    /** Bodies newest first, listing again while every body it tried was deleted meanwhile. */
    private final class BodyWalk extends NewestFirstWalk {
        private final String agentId;
        private final String agent;
        private final Long maxVersion;
        private final int pageHint;
        private Iterator<String> keys;
        private int listings;
        private boolean missedAny;
        private boolean foreignAny;

        BodyWalk(String agentId, Long maxVersion, int pageHint) {
            this.agentId = agentId;
            this.agent = KeyParts.encode(agentId);
            this.maxVersion = maxVersion;
            this.pageHint = pageHint;
            list();
        }

        private void list() {
            KeyLayout layout = store.layout();
            keys = store.objects().keys(layout.bodyFolder(agent), layout.bodiesUpTo(agent, maxVersion), pageHint);
            listings++;
            missedAny = false;
            foreignAny = false;
        }

        @Override
        protected StoredDocument advance() {
            while (true) {
                if (!keys.hasNext()) {
                    boolean again = !returnedAny()
                            && (missedAny && listings < MAX_LISTINGS
                                    || foreignAny && listings < MAX_LISTINGS_PAST_FOREIGN_KEYS);
                    if (!again) {
                        return null;
                    }
                    list();
                    continue;
                }
                long version;
                try {
                    version = store.layout().versionOfBody(agent, keys.next());
                } catch (NumberFormatException e) {
                    foreignAny = true; // not an object of this layout
                    continue;
                }
                Optional<StoredDocument> body = store.readBody(agentId, agent, version);
                if (body.isPresent()) {
                    return body.get();
                }
                if (!returnedAny() && listings < MAX_LISTINGS) {
                    list(); // deleted since listed: a newer body may have been committed meanwhile, start from the top
                } else {
                    missedAny = true;
                }
            }
        }
    }

    /**
     * Index entries newest first, prefiltered by their attributes; the body of each candidate version once. Like
     * {@link BodyWalk} it lists again from the newest entry when a candidate's body is gone before anything was
     * returned.
     */
    private final class IndexWalk extends NewestFirstWalk {
        private final String agentId;
        private final String agent;
        private final Predicate<IndexEntry> candidate;
        private final Long maxVersion;
        private Iterator<String> keys;
        private int listings;
        private long lastRead = -1;

        IndexWalk(String agentId, CheckpointFilter filter) {
            this.agentId = agentId;
            this.agent = KeyParts.encode(agentId);
            this.candidate = IndexEntry.prefilter(filter);
            this.maxVersion = filter.maxVersion();
            list();
        }

        private void list() {
            KeyLayout layout = store.layout();
            keys = store.objects().keys(layout.indexFolder(agent), layout.indexUpTo(agent, maxVersion), S3Objects.PAGE);
            listings++;
            lastRead = -1;
        }

        @Override
        protected StoredDocument advance() {
            while (keys.hasNext()) {
                IndexEntry entry = store.layout().indexEntryOf(agent, keys.next());
                if (entry == null || entry.version() == lastRead || !candidate.test(entry)) {
                    continue;
                }
                // Several entries may name one version (left by saves that lost); its body decides once.
                lastRead = entry.version();
                Optional<StoredDocument> body = store.readBody(agentId, agent, entry.version());
                if (body.isPresent()) {
                    return body.get();
                }
                if (!returnedAny() && listings < MAX_LISTINGS) {
                    list(); // deleted since listed: a newer checkpoint may have been committed meanwhile
                }
            }
            return null;
        }
    }
}
