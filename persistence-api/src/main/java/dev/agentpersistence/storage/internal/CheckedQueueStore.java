package dev.agentpersistence.storage.internal;

import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A backend's queue store as the shell exposes it: names, ids and arguments checked and the shell's closed and
 * read-only states honoured before the backend is called; bodies wrapped in the store's layers (compression, checksum,
 * encryption) on the way in and checked and unwrapped on the way out, within the maximum checkpoint size.
 */
public final class CheckedQueueStore implements QueueStore {
    private final QueueStore backend;
    private final DocumentLayers layers;
    private final long maxSize;
    private final Runnable requireOpen;
    private final Consumer<String> requireWritable;

    public CheckedQueueStore(
            QueueStore backend,
            DocumentLayers layers,
            long maxSize,
            Runnable requireOpen,
            Consumer<String> requireWritable) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.layers = Objects.requireNonNull(layers, "layers");
        this.maxSize = maxSize;
        this.requireOpen = Objects.requireNonNull(requireOpen, "requireOpen");
        this.requireWritable = Objects.requireNonNull(requireWritable, "requireWritable");
    }

    @Override
    public List<QueueItem> items(String queue) {
        requireOpen.run();
        requireQueue(queue);
        return unwrapAll(queue, backend.items(queue));
    }

    @Override
    public Optional<QueueItem> item(String queue, String id) {
        requireOpen.run();
        requireQueue(queue);
        Identifiers.requireValid(id, "queue item id");
        return backend.item(queue, id).map(item -> unwrap(queue, item));
    }

    @Override
    public List<QueueItem> runnable(String queue, Instant now, int limit) {
        requireOpen.run();
        requireQueue(queue);
        QueueItem.toEpochNanos(Objects.requireNonNull(now, "now"));
        requireLimit(limit);
        return unwrapAll(queue, backend.runnable(queue, now, limit));
    }

    @Override
    public List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        requireOpen.run();
        requireWritable.accept("queue claim");
        requireQueue(queue);
        QueueItem.toEpochNanos(Objects.requireNonNull(now, "now"));
        QueueItem.toEpochNanos(Objects.requireNonNull(until, "until"));
        requireLimit(limit);
        return unwrapAll(queue, backend.claim(queue, now, until, limit));
    }

    @Override
    public void hold(String queue, String id, Instant until) {
        requireOpen.run();
        requireWritable.accept("queue hold");
        requireQueue(queue);
        Identifiers.requireValid(id, "queue item id");
        QueueItem.toEpochNanos(Objects.requireNonNull(until, "until"));
        backend.hold(queue, id, until);
    }

    @Override
    public boolean write(String queue, QueueItem item) {
        requireOpen.run();
        requireWritable.accept("queue write");
        requireQueue(queue);
        Objects.requireNonNull(item, "item");
        if (item.body().length > maxSize) {
            throw new CheckpointTooLargeException(queue, item.id(), item.body().length, maxSize);
        }
        return backend.write(queue, item.withBody(layers.wrap(item.body())));
    }

    @Override
    public int deleteFinished(String queue, int keep) {
        requireOpen.run();
        requireWritable.accept("queue deleteFinished");
        requireQueue(queue);
        if (keep < 0) {
            throw new IllegalArgumentException("keep must not be negative but was " + keep);
        }
        return backend.deleteFinished(queue, keep);
    }

    private List<QueueItem> unwrapAll(String queue, List<QueueItem> stored) {
        return stored.stream().map(item -> unwrap(queue, item)).toList();
    }

    private QueueItem unwrap(String queue, QueueItem stored) {
        var where =
                new CheckpointLocation(queue, stored.id(), "queue item '" + stored.id() + "' of queue '" + queue + "'");
        return stored.withBody(layers.unwrap(stored.body(), where, maxSize));
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1 but was " + limit);
        }
    }

    private static void requireQueue(String queue) {
        Identifiers.requireValid(queue, "queue name");
    }
}
