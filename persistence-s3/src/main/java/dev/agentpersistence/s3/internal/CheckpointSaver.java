package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The save protocol. Four writes, the last of which commits:
 *
 * <ol>
 *   <li>claim the checkpoint id: create the id marker {@code id/A/I} (version and id) with {@code If-None-Match: *}; an
 *       existing marker for another version is a conflict when that version's body holds this id, and is taken over
 *       (conditionally on its ETag) when it is stale;
 *   <li>write the index entry {@code x/A/R.<attrs>/I} (one byte, idempotent);
 *   <li>raise the {@link LatestPointer} {@code l/A} to the version (a conditional PUT on the ETag this provider last
 *       saw, else a GET and a conditional PUT unless it is already there or above);
 *   <li>create the body {@code v/A/R} with {@code If-None-Match: *}. Its existence is the commit: a reader never sees a
 *       checkpoint without its marker and index entry, and the pointer is at or above it. If the key is taken, the
 *       stored document is returned for the shell to decide (identical content is a no-op).
 * </ol>
 *
 * Then the pointer is read once more and raised again if a concurrent {@code deleteCheckpoints} removed it meanwhile. A
 * save that stops after step 1, 2 or 3 (crash, lost race) leaves a marker, index entry or pointer without a matching
 * body. Readers ignore them, because they always check the body; a later save of the same id takes the marker over when
 * its version's body holds another id, or when no body appeared within {@link #CLAIM_LEASE}.
 *
 * <p>Steps 1 to 3 do not depend on each other, only the body depends on all three: the index entry (and the agent name
 * of a digest-named agent) and the pointer's conditional PUT on its last seen ETag are sent {@link OverlappedRequests
 * concurrently} with the claim, and all are complete before the body is written, so a save costs three round trips
 * instead of five. The price is paid only by a save whose claim fails (its id is stored at another version): it leaves
 * an index entry, which readers ignore like one of a cut save, and may leave the pointer above every body, so that
 * latest lists until a save reaches that version.
 */
public final class CheckpointSaver {
    /** How long a claimed id waits for its body before another version may take it over. */
    public static final Duration CLAIM_LEASE = Duration.ofMinutes(5);

    private static final int ATTEMPTS = 5;

    private final CheckpointObjects store;
    private final LatestPointer pointer;
    private final Clock clock;
    private final Duration lease;
    private final OverlappedRequests requests;

    /** A saver whose requests overlap through {@code requests}. */
    CheckpointSaver(CheckpointObjects store, Clock clock, OverlappedRequests requests) {
        this(store, clock, CLAIM_LEASE, requests);
    }

    /**
     * A saver whose claims lapse after {@code lease} instead of {@link #CLAIM_LEASE}, sending its requests one by one.
     */
    public CheckpointSaver(CheckpointObjects store, Clock clock, Duration lease) {
        this(store, clock, lease, OverlappedRequests.inline());
    }

    private CheckpointSaver(CheckpointObjects store, Clock clock, Duration lease, OverlappedRequests requests) {
        this.requests = Objects.requireNonNull(requests, "requests");
        this.store = Objects.requireNonNull(store, "store");
        this.pointer = new LatestPointer(store);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lease = Objects.requireNonNull(lease, "lease");
    }

    /** Saves {@code checkpoint} unless its version or id is taken; then answers with the stored document holding it. */
    public InsertResult save(StoredCheckpoint checkpoint) {
        String agentId = checkpoint.agentId();
        S3Objects objects = store.objects();
        KeyLayout layout = store.layout();
        String agent = KeyParts.encode(agentId);
        byte[] body = store.format().wrap(checkpoint.document());
        // The agent name, the index entry and the pointer's raise do not depend on the claim: they
        // overlap with it, and all are done before the body is written.
        var started = new ArrayList<OverlappedRequests.Pending<?>>(3);
        if (KeyParts.isDigest(agent)) {
            byte[] name = agentId.getBytes(StandardCharsets.UTF_8);
            started.add(requests.start(() -> put(objects, layout.nameKey(agent), name)));
        }
        String indexKey = layout.indexKey(agent, IndexEntry.of(checkpoint));
        started.add(requests.start(() -> put(objects, indexKey, IndexEntry.CONTENT)));
        Supplier<Boolean> quickRaise = pointer.raiseOnLastSeen(agent, checkpoint.version());
        OverlappedRequests.Pending<Boolean> raised = quickRaise == null ? null : requests.start(quickRaise);
        long claimedAt = System.nanoTime();
        Optional<StoredDocument> holder;
        try {
            holder = claimId(agentId, agent, checkpoint);
        } catch (RuntimeException | Error e) {
            started.forEach(request -> request.awaitQuietly(e));
            if (raised != null) {
                raised.awaitQuietly(e);
            }
            throw e;
        }
        for (OverlappedRequests.Pending<?> request : started) {
            request.join();
        }
        boolean pointerRaised = raised != null && raised.join();
        if (holder.isPresent()) {
            return InsertResult.clashedWith(List.of(holder.get()));
        }
        if (System.nanoTime() - claimedAt > lease.toNanos() / 2) {
            // Slow enough that another writer may judge the claim stale: check it is still ours.
            String idSegment = KeyParts.encode(checkpoint.checkpointId());
            var marker = store.readMarker(agentId, agent, idSegment);
            if (marker.isEmpty() || marker.get().version() != checkpoint.version()) {
                throw new CheckpointConflictException(
                        agentId,
                        checkpoint.checkpointId(),
                        checkpoint.version(),
                        "Cannot save checkpoint '" + checkpoint.checkpointId() + "' (version " + checkpoint.version()
                                + ") of agent '" + agentId
                                + "': the claim on its id expired and was taken by another save");
            }
        }
        if (!pointerRaised) {
            pointer.raise(agent, checkpoint.version());
        }
        String bodyKey = layout.bodyKey(agent, checkpoint.version());
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (objects.putIfAbsent(bodyKey, body, store.format().metadata())) {
                pointer.raise(agent, checkpoint.version());
                return InsertResult.stored();
            }
            Optional<StoredDocument> stored = store.readBody(agentId, agent, checkpoint.version());
            if (stored.isPresent()) {
                pointer.raise(agent, checkpoint.version());
                return InsertResult.clashedWith(List.of(stored.get()));
            }
            // The body was deleted between our write and our read: try again.
        }
        throw new PersistenceException("Cannot save checkpoint '" + checkpoint.checkpointId() + "' of agent '" + agentId
                + "': " + objects.location(bodyKey) + " keeps appearing and disappearing (concurrent deletes?)");
    }

    private static Void put(S3Objects objects, String key, byte[] bytes) {
        objects.put(key, bytes, Map.of());
        return null;
    }

    /** Claims the id; the stored document of another version holding it, when there is one. */
    private Optional<StoredDocument> claimId(String agentId, String agent, StoredCheckpoint checkpoint) {
        S3Objects objects = store.objects();
        String idSegment = KeyParts.encode(checkpoint.checkpointId());
        String markerKey = store.layout().markerKey(agent, idSegment);
        byte[] claim = new IdMarker(checkpoint.version(), checkpoint.checkpointId()).toBytes();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (objects.putIfAbsent(markerKey, claim, Map.of())) {
                return Optional.empty();
            }
            Optional<StoredObject> existing = objects.get(markerKey);
            if (existing.isEmpty()) {
                continue; // deleted meanwhile: claim again
            }
            IdMarker marker = IdMarker.parse(existing.get().bytes()).orElse(null);
            if (marker != null && !marker.checkpointId().equals(checkpoint.checkpointId())) {
                throw new PersistenceException("Checkpoint ids '" + marker.checkpointId() + "' and '"
                        + checkpoint.checkpointId() + "' of agent '" + agentId + "' share the digest key "
                        + objects.location(markerKey) + "; this cannot be stored");
            }
            if (marker != null && marker.version() == checkpoint.version()) {
                return Optional.empty(); // the same claim: a retry, or a concurrent identical save
            }
            if (marker != null) {
                Optional<StoredDocument> holder = store.readBody(agentId, agent, marker.version());
                if (holder.isPresent() && store.checkpointIdOf(holder.get()).equals(checkpoint.checkpointId())) {
                    return holder; // the id is stored at another version
                }
                if (holder.isEmpty() && !expired(existing.get())) {
                    throw new CheckpointConflictException(
                            agentId,
                            checkpoint.checkpointId(),
                            checkpoint.version(),
                            "Cannot save checkpoint '" + checkpoint.checkpointId() + "' (version "
                                    + checkpoint.version() + ") of agent '" + agentId + "': the id is being saved as"
                                    + " version " + marker.version() + " by another writer (a crashed save's claim"
                                    + " lapses " + lease.toSeconds() + " s after it was made)");
                }
            }
            // Stale (its version holds another id, or it lapsed) or unreadable: take it over if unchanged.
            if (objects.replaceIfUnchanged(markerKey, existing.get().eTag(), claim, Map.of())) {
                return Optional.empty();
            }
        }
        throw new PersistenceException("Cannot claim checkpoint id '" + checkpoint.checkpointId() + "' of agent '"
                + agentId + "' at " + objects.location(markerKey) + ": it keeps changing under concurrent saves");
    }

    private boolean expired(StoredObject marker) {
        Instant now = marker.readAt() != null ? marker.readAt() : clock.instant();
        return marker.lastModified() != null
                && marker.lastModified().plus(lease).isBefore(now);
    }
}
