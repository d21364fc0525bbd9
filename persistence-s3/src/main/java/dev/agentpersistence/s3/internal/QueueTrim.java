package dev.agentpersistence.s3.internal;

import dev.agentpersistence.queue.QueueItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code deleteFinished} of {@link S3Queues}, from the queue's finished index ({@link FinishedEntry}): one listing (one
 * request per 1,000 entries, oldest first); the newest {@code keep} entries are kept unread, and the item of each older
 * one is read (side by side). An item still finished as its entry names it is first overwritten with a tombstone by
 * {@code If-Match} on the entity tag read: a retry that wrote the item since makes that write fail, and the item is
 * kept; otherwise no writer can store the item any more (a first write finds the tombstone, a later one finds no
 * version before), and the deletion goes on: its hold and the markers of its generation (one listing of the markers),
 * then the item, then its entry, each step one {@code DeleteObjects} for every item of the call.
 *
 * <p>An entry whose item is gone, or finished with another submission time (it has another entry), is deleted; one
 * whose item is not finished is left, for when it finishes again. A tombstone older than the leftover age
 * ({@link QueueObjects#LEFTOVER_AGE}), left by a deletion that stopped, is taken over (replaced by a tombstone of this
 * call, conditionally) and its deletion finished.
 */
final class QueueTrim {
    private final QueueObjects objects;
    private final KeyLayout layout;

    QueueTrim(QueueObjects objects) {
        this.objects = objects;
        this.layout = objects.layout();
    }

    /** An entry that names an item: its key, its item and what was read there. */
    private record Candidate(FinishedEntry entry, String key, Optional<QueueObjects.Stored> stored) {}

    int deleteFinished(String queue, int keep) {
        String q = KeyParts.encode(queue);
        String folder = layout.queueFinishedFolder(q);
        var entries = new ArrayList<FinishedEntry>();
        var keys = new ArrayList<String>();
        for (S3Object object : objects.objects().list(folder)) {
            FinishedEntry.parse(object.key().substring(folder.length())).ifPresent(entry -> {
                entries.add(entry);
                keys.add(object.key());
            });
        }
        int older = entries.size() - keep;
        if (older <= 0) {
            return 0;
        }
        var read = new ArrayList<Candidate>(older);
        var stored = objects.each(entries.subList(0, older), entry -> objects.read(queue, q, entry.item()));
        for (int i = 0; i < older; i++) {
            read.add(new Candidate(entries.get(i), keys.get(i), stored.get(i)));
        }
        var staleEntries = new ArrayList<String>();
        var doomed = new ArrayList<Candidate>();
        for (Candidate candidate : read) {
            switch (verdict(candidate)) {
                case DELETE -> doomed.add(candidate);
                case STALE -> staleEntries.add(candidate.key());
                case KEEP -> {}
            }
        }
        // of the doomed, those this call tombstoned; a refused write means another writer got there first
        var tombstoned = new ArrayList<Candidate>();
        var written = objects.each(
                doomed,
                candidate -> objects.replaceIfUnchanged(
                        layout.queueItemKey(q, candidate.entry().item()),
                        candidate.stored().orElseThrow().eTag(),
                        QueueFormat.tombstone(candidate.stored().orElseThrow().content())));
        for (int i = 0; i < doomed.size(); i++) {
            if (written.get(i)) {
                tombstoned.add(doomed.get(i));
            }
        }
        if (!tombstoned.isEmpty()) {
            objects.delete(holdsAndMarkers(q, tombstoned));
            objects.delete(tombstoned.stream()
                    .map(candidate -> layout.queueItemKey(q, candidate.entry().item()))
                    .toList());
            tombstoned.forEach(candidate -> staleEntries.add(candidate.key()));
        }
        objects.delete(staleEntries);
        return tombstoned.size();
    }

    private enum Verdict {
        DELETE,
        STALE,
        KEEP
    }

    private Verdict verdict(Candidate candidate) {
        if (candidate.stored().isEmpty()) {
            return Verdict.STALE;
        }
        QueueObjects.Stored stored = candidate.stored().get();
        if (stored.content() instanceof QueueFormat.Live live) {
            if (!live.item().finished()) {
                return Verdict.KEEP;
            }
            long submitted = QueueItem.toEpochNanos(live.item().submittedAt());
            return submitted == candidate.entry().submittedAt() ? Verdict.DELETE : Verdict.STALE;
        }
        return objects.isLeftover(stored.lastModified(), stored.readAt()) ? Verdict.DELETE : Verdict.KEEP;
    }

    /** The hold of every item and every listed marker of its generation. */
    private List<String> holdsAndMarkers(String q, List<Candidate> tombstoned) {
        Map<String, String> generations = new HashMap<>();
        var keys = new ArrayList<String>();
        for (Candidate candidate : tombstoned) {
            generations.put(
                    candidate.entry().item(),
                    candidate.stored().orElseThrow().content().generation());
            keys.add(layout.queueHoldKey(q, candidate.entry().item()));
        }
        String folder = layout.queueMarkerFolder(q);
        for (S3Object object : objects.objects().list(folder)) {
            QueueMarker.parse(object.key().substring(folder.length()))
                    .filter(marker -> marker.generation().equals(generations.get(marker.item())))
                    .ifPresent(marker -> keys.add(object.key()));
        }
        return keys;
    }
}
