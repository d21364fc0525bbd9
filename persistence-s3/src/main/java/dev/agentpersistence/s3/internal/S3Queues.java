package dev.agentpersistence.s3.internal;

import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Native queues in the bucket, for stores with conditional writes: one object per item ({@code P/q/Q/I}, its version,
 * times and flag in a header before the body), written by {@code If-None-Match: *} (version 1) or {@code If-Match} on
 * the entity tag of the version before, so of two writers of one version exactly one stores. Beside the items: an
 * open-item marker per unfinished version ({@link QueueMarker}), which claims list instead of every item, a hold per
 * claimed item ({@link QueueClaims}), and a finished index for {@link QueueTrim}. The item is always the truth; the
 * other objects only point at it, so leftovers of interrupted calls are read, found stale and cleaned. Failures are the
 * module's typed errors ({@link S3Failures}).
 */
final class S3Queues implements QueueStore {
    private final QueueObjects objects;
    private final KeyLayout layout;
    private final QueueClaims claims;
    private final QueueTrim trim;

    S3Queues(QueueObjects objects) {
        this.objects = objects;
        this.layout = objects.layout();
        this.claims = new QueueClaims(objects);
        this.trim = new QueueTrim(objects);
    }

    /** One listing per 1,000 items, then one GET per item, side by side. */
    @Override
    public List<QueueItem> items(String queue) {
        String q = KeyParts.encode(queue);
        String folder = layout.queueItemFolder(q);
        List<String> parts = new ArrayList<>();
        for (S3Object object : objects.objects().list(folder)) {
            parts.add(object.key().substring(folder.length()));
        }
        var items = new ArrayList<QueueItem>();
        for (var stored : objects.each(parts, part -> objects.read(queue, q, part))) {
            stored.flatMap(QueueObjects.Stored::live).ifPresent(live -> items.add(live.item()));
        }
        items.sort(QueueItem.ORDER);
        return items;
    }

    /** One GET. */
    @Override
    public Optional<QueueItem> item(String queue, String id) {
        return objects.read(queue, KeyParts.encode(queue), KeyParts.encode(id))
                .flatMap(QueueObjects.Stored::live)
                .map(QueueFormat.Live::item);
    }

    @Override
    public List<QueueItem> runnable(String queue, Instant now, int limit) {
        return claims.scan(queue, now, null, limit);
    }

    @Override
    public List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        return claims.scan(queue, now, until, limit);
    }

    /** One GET (the item, for its generation), then one PUT of the hold. */
    @Override
    public void hold(String queue, String id, Instant until) {
        String q = KeyParts.encode(queue);
        String i = KeyParts.encode(id);
        objects.read(queue, q, i)
                .flatMap(QueueObjects.Stored::live)
                .ifPresent(live -> objects.put(layout.queueHoldKey(q, i), QueueFormat.hold(live.generation(), until)));
    }

    /**
     * Version 1: the marker of an unfinished item, then the item with {@code If-None-Match: *}. Later versions: a GET
     * of the item, which must have the version before; the marker of an unfinished version; the item with
     * {@code If-Match} on the entity tag read. A refused PUT reads the item once, in case it holds this very write (its
     * answer lost, the client's retry refused); else a first write deletes its marker again (its generation is its
     * own). After the item, side by side: the marker of the version before is deleted, and a finished item gets its
     * entry in the finished index (the entry of a finished version before is deleted when it no longer names the item).
     */
    @Override
    public boolean write(String queue, QueueItem item) {
        String q = KeyParts.encode(queue);
        String i = KeyParts.encode(item.id());
        String key = layout.queueItemKey(q, i);
        String write = QueueFormat.random();
        if (item.version() == 1) {
            String generation = QueueFormat.random();
            String marker = item.finished() ? null : layout.queueMarkerKey(q, QueueMarker.of(item, generation));
            if (marker != null) {
                objects.putEmpty(marker);
            }
            if (!objects.putIfAbsent(key, QueueFormat.item(item, generation, write)) && !holds(queue, q, i, write)) {
                if (marker != null) {
                    objects.delete(List.of(marker));
                }
                return false;
            }
            afterWrite(q, null, item);
            return true;
        }
        Optional<QueueObjects.Stored> read = objects.read(queue, q, i);
        Optional<QueueFormat.Live> stored = read.flatMap(QueueObjects.Stored::live);
        if (stored.isEmpty() || stored.get().version() != item.version() - 1) {
            return false;
        }
        QueueFormat.Live before = stored.get();
        if (!item.finished()) {
            objects.putEmpty(layout.queueMarkerKey(q, QueueMarker.of(item, before.generation())));
        }
        byte[] bytes = QueueFormat.item(item, before.generation(), write);
        if (!objects.replaceIfUnchanged(key, read.get().eTag(), bytes) && !holds(queue, q, i, write)) {
            return false;
        }
        afterWrite(q, before, item);
        return true;
    }

    /** Whether item {@code i} holds the write marked {@code write}. */
    private boolean holds(String queue, String q, String i, String write) {
        return objects.read(queue, q, i)
                .flatMap(QueueObjects.Stored::live)
                .map(live -> live.write().equals(write))
                .orElse(false);
    }

    /** The markers and finished-index entries after {@code item} replaced {@code before} (null: none). */
    private void afterWrite(String q, QueueFormat.Live before, QueueItem item) {
        var stale = new ArrayList<String>(1);
        if (before != null && !before.item().finished()) {
            stale.add(layout.queueMarkerKey(q, QueueMarker.of(before.item(), before.generation())));
        } else if (before != null
                && (!item.finished() || !item.submittedAt().equals(before.item().submittedAt()))) {
            stale.add(layout.queueFinishedKey(q, entryOf(before.item())));
        }
        String entry = item.finished() ? layout.queueFinishedKey(q, entryOf(item)) : null;
        if (entry == null || stale.isEmpty()) {
            objects.delete(stale);
            if (entry != null) {
                objects.putEmpty(entry);
            }
            return;
        }
        var deleted = objects.start(() -> {
            objects.delete(stale);
            return null;
        });
        try {
            objects.putEmpty(entry);
        } catch (RuntimeException e) {
            deleted.awaitQuietly(e);
            throw e;
        }
        deleted.join();
    }

    private static FinishedEntry entryOf(QueueItem item) {
        return new FinishedEntry(QueueItem.toEpochNanos(item.submittedAt()), KeyParts.encode(item.id()));
    }

    @Override
    public int deleteFinished(String queue, int keep) {
        return trim.deleteFinished(queue, keep);
    }
}
