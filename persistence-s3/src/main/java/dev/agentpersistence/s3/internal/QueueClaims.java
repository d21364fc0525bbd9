package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.queue.QueueItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code runnable} and {@code claim} of {@link S3Queues}: one listing of the queue's open-item markers (one request per
 * 1,000), which come in submission order and name each marked version's runnable time, so only items whose marker says
 * they may be runnable are read: their item and hold, side by side, in submission order, until {@code limit} are found.
 * An item counts when it is runnable and no hold of its generation lasts beyond {@code now}.
 *
 * <p>A claim then takes each such item by a conditional write of its hold ({@code If-None-Match: *} when it has none,
 * {@code If-Match} on the ended hold read), so of claimers racing for one item exactly one gets it and the others go on
 * to the next; the item is read once more after its hold is written, so the claim answers it as it was while held. A
 * claim also deletes the markers it found stale: of a version below the item's, of the item's version when that is
 * finished or was written with other times, of a generation that is gone (an item deleted), and markers of a first
 * write older than the leftover age ({@link QueueObjects#LEFTOVER_AGE}) whose item never appeared.
 */
final class QueueClaims {
    private final QueueObjects objects;
    private final KeyLayout layout;

    QueueClaims(QueueObjects objects) {
        this.objects = objects;
        this.layout = objects.layout();
    }

    /** A marker as listed. */
    private record Listed(QueueMarker marker, String key, Instant lastModified) {}

    /** The reads of one candidate, side by side. */
    private record Look(
            OverlappedRequests.Pending<Optional<QueueObjects.Stored>> item,
            OverlappedRequests.Pending<Optional<StoredObject>> hold) {}

    /** An item found runnable and not held, with the hold read (to replace it conditionally). */
    private record Found(QueueFormat.Live live, Optional<StoredObject> hold) {}

    /**
     * The runnable items nobody holds, up to {@code limit}, in the queue's order.
     *
     * @param until {@code null} to only read; else the end of the holds a claim writes
     */
    List<QueueItem> scan(String queue, Instant now, Instant until, int limit) {
        String q = KeyParts.encode(queue);
        long at = QueueItem.toEpochNanos(now);
        String folder = layout.queueMarkerFolder(q);
        var markers = new HashMap<String, List<Listed>>();
        var candidates = new LinkedHashMap<String, Long>(); // item part -> submission time of its first marker
        for (S3Object object : objects.objects().list(folder)) {
            QueueMarker.parse(object.key().substring(folder.length())).ifPresent(marker -> {
                markers.computeIfAbsent(marker.item(), k -> new ArrayList<>())
                        .add(new Listed(marker, object.key(), object.lastModified()));
                if (marker.runnableBy(at)) {
                    candidates.putIfAbsent(marker.item(), marker.submittedAt());
                }
            });
        }
        var items = new ArrayList<>(candidates.keySet());
        var times = new ArrayList<>(candidates.values());
        var looks = new ArrayList<Look>(items.size());
        var result = new ArrayList<QueueItem>();
        var stale = new ArrayList<String>();
        try {
            int from = 0;
            while (from < items.size() && result.size() < limit) {
                int to = from;
                while (to < items.size() && times.get(to).equals(times.get(from))) {
                    to++;
                }
                // one submission time at a time: its items sorted by id, as the queue's order has them
                var found = new ArrayList<Found>();
                for (int index = from; index < to; index++) {
                    int window = Math.min(QueueObjects.BATCH, Math.max(1, limit - result.size()));
                    while (looks.size() < Math.min(items.size(), index + window)) {
                        String item = items.get(looks.size());
                        looks.add(new Look(
                                objects.start(() -> objects.read(queue, q, item)),
                                objects.start(() -> objects.readHold(q, item))));
                    }
                    Optional<QueueObjects.Stored> stored =
                            looks.get(index).item().join();
                    Optional<StoredObject> hold = looks.get(index).hold().join();
                    if (until != null) {
                        stale.addAll(staleMarkers(markers.get(items.get(index)), stored));
                    }
                    stored.flatMap(QueueObjects.Stored::live)
                            .filter(live -> live.item().isRunnableAt(now) && !held(hold, live.generation(), at))
                            .ifPresent(live -> found.add(new Found(live, hold)));
                }
                found.sort((a, b) ->
                        QueueItem.ORDER.compare(a.live().item(), b.live().item()));
                for (int i = 0; i < found.size() && result.size() < limit; i++) {
                    QueueItem item =
                            until == null ? found.get(i).live().item() : take(queue, q, found.get(i), now, until);
                    if (item != null) {
                        result.add(item);
                    }
                }
                from = to;
            }
        } finally {
            for (Look look : looks) {
                look.item().awaitQuietly(null);
                look.hold().awaitQuietly(null);
            }
        }
        forget(stale);
        return result;
    }

    private static boolean held(Optional<StoredObject> hold, String generation, long at) {
        return hold.flatMap(stored -> QueueFormat.decodeHold(stored.bytes()))
                .map(found -> found.holds(generation, at))
                .orElse(false);
    }

    /** Holds {@code found} by a conditional write and reads it again; null when another claim got it first. */
    private QueueItem take(String queue, String q, Found found, Instant now, Instant until) {
        String item = KeyParts.encode(found.live().id());
        String key = layout.queueHoldKey(q, item);
        byte[] hold = QueueFormat.hold(found.live().generation(), until);
        boolean taken = found.hold().isEmpty()
                ? objects.putIfAbsent(key, hold)
                : objects.replaceIfUnchanged(key, found.hold().get().eTag(), hold);
        if (!taken) {
            return null;
        }
        return objects.read(queue, q, item)
                .flatMap(QueueObjects.Stored::live)
                .filter(live -> live.generation().equals(found.live().generation())
                        && live.item().isRunnableAt(now))
                .map(QueueFormat.Live::item)
                .orElse(null);
    }

    /** The keys of {@code listed} that can never again mark a version of the item {@code stored} shows. */
    private List<String> staleMarkers(List<Listed> listed, Optional<QueueObjects.Stored> stored) {
        var stale = new ArrayList<String>();
        Instant storeNow = stored.map(QueueObjects.Stored::readAt).orElseGet(objects::now);
        for (Listed entry : listed) {
            if (isStale(entry, stored, storeNow)) {
                stale.add(entry.key());
            }
        }
        return stale;
    }

    private boolean isStale(Listed entry, Optional<QueueObjects.Stored> stored, Instant storeNow) {
        QueueMarker marker = entry.marker();
        if (stored.isPresent() && stored.get().content().generation().equals(marker.generation())) {
            if (!(stored.get().content() instanceof QueueFormat.Live live)) {
                return true; // the tombstone of its generation
            }
            long version = live.version();
            return marker.version() < version
                    || (marker.version() == version
                            && (live.item().finished()
                                    || !marker.equals(QueueMarker.of(live.item(), live.generation()))));
        }
        // no item of its generation: after a first write, a generation that is gone; else perhaps a first write
        // between its marker and its item, so only an old one
        return marker.version() > 1 || objects.isLeftover(entry.lastModified(), storeNow);
    }

    /** Deletes stale markers, best effort: they cost later claims a read, never a wrong answer. */
    private void forget(List<String> stale) {
        try {
            objects.delete(stale);
        } catch (PersistenceException e) {
            // left for the next claim
        }
    }
}
