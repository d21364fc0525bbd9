package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CorruptCheckpointException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The objects of native queues ({@link KeyLayout}, {@link QueueFormat}) over {@link S3Objects}, shared by the parts of
 * {@link S3Queues}: reads an item's object as its content and entity tag (a malformed one is a
 * {@link CorruptCheckpointException} naming the queue, the item and the object), and runs independent requests
 * together.
 */
final class QueueObjects {
    /**
     * How long a leftover of an interrupted call (a first write's marker without its item, a tombstone whose deletion
     * stopped) is left alone before it is cleaned: far longer than any call takes between its requests.
     */
    static final Duration LEFTOVER_AGE = Duration.ofMinutes(10);

    /** Most requests started at once by one call. */
    static final int BATCH = 32;

    private static final Map<String, String> NO_METADATA = Map.of();

    private final S3Objects objects;
    private final KeyLayout layout;
    private final OverlappedRequests requests;
    private final Clock clock;
    private final Duration leftoverAge;

    QueueObjects(S3Objects objects, KeyLayout layout, OverlappedRequests requests, Clock clock) {
        this(objects, layout, requests, clock, LEFTOVER_AGE);
    }

    /** Objects whose leftovers are cleaned after {@code leftoverAge} instead of {@link #LEFTOVER_AGE}. */
    QueueObjects(S3Objects objects, KeyLayout layout, OverlappedRequests requests, Clock clock, Duration leftoverAge) {
        this.objects = Objects.requireNonNull(objects, "objects");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leftoverAge = Objects.requireNonNull(leftoverAge, "leftoverAge");
    }

    /**
     * An item's object as read.
     *
     * @param content the item or its tombstone
     * @param eTag its entity tag, for a conditional overwrite
     * @param lastModified when it was written, by the store's clock
     * @param readAt when it was read, by the store's clock when it said, else by this process's
     */
    record Stored(QueueFormat.Content content, String eTag, Instant lastModified, Instant readAt) {
        /** The item, unless this is a tombstone. */
        Optional<QueueFormat.Live> live() {
            return content instanceof QueueFormat.Live live ? Optional.of(live) : Optional.empty();
        }
    }

    S3Objects objects() {
        return objects;
    }

    KeyLayout layout() {
        return layout;
    }

    Instant now() {
        return clock.instant();
    }

    /** Whether an object written at {@code written} is a leftover at {@code now}: older than the leftover age. */
    boolean isLeftover(Instant written, Instant now) {
        return written != null && written.plus(leftoverAge).isBefore(now);
    }

    /** The object of item {@code item} (key part) of {@code queue} (named {@code queueName}), or empty. */
    Optional<Stored> read(String queueName, String queue, String item) {
        String key = layout.queueItemKey(queue, item);
        Optional<StoredObject> found;
        try {
            found = objects.get(key);
        } catch (ObjectTooLargeException e) {
            throw corrupt(queueName, item, key, e.getMessage(), null);
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        StoredObject object = found.get();
        QueueFormat.Content content;
        try {
            content = QueueFormat.decode(object.bytes());
        } catch (RuntimeException e) {
            throw corrupt(queueName, item, key, "not a queue item (" + e.getMessage() + ")", e);
        }
        if (!KeyParts.encode(content.id()).equals(item)) {
            throw corrupt(queueName, item, key, "the object holds item '" + content.id() + "'", null);
        }
        Instant readAt = object.readAt() != null ? object.readAt() : clock.instant();
        return Optional.of(new Stored(content, object.eTag(), object.lastModified(), readAt));
    }

    /** The object of the hold of {@code item}, or empty. */
    Optional<StoredObject> readHold(String queue, String item) {
        return objects.get(layout.queueHoldKey(queue, item));
    }

    /** Writes an empty object at {@code key}. */
    void putEmpty(String key) {
        objects.put(key, new byte[0], NO_METADATA);
    }

    boolean putIfAbsent(String key, byte[] bytes) {
        return objects.putIfAbsent(key, bytes, NO_METADATA);
    }

    boolean replaceIfUnchanged(String key, String eTag, byte[] bytes) {
        return objects.replaceIfUnchanged(key, eTag, bytes, NO_METADATA);
    }

    void put(String key, byte[] bytes) {
        objects.put(key, bytes, NO_METADATA);
    }

    /** Starts {@code request} beside others. */
    <T> OverlappedRequests.Pending<T> start(java.util.function.Supplier<T> request) {
        return requests.start(request);
    }

    /**
     * {@code request} for every input, {@value #BATCH} at a time side by side, the results in the order of
     * {@code inputs}; the first failure is thrown once every started request has ended.
     */
    <I, T> List<T> each(Collection<I> inputs, Function<I, T> request) {
        var results = new ArrayList<T>(inputs.size());
        var batch = new ArrayList<OverlappedRequests.Pending<T>>(BATCH);
        for (I input : inputs) {
            batch.add(requests.start(() -> request.apply(input)));
            if (batch.size() == BATCH) {
                joinAll(batch, results);
            }
        }
        joinAll(batch, results);
        return results;
    }

    /** Joins every request of {@code started}, in order, into {@code results}; the first failure after all ended. */
    static <T> void joinAll(List<OverlappedRequests.Pending<T>> started, List<T> results) {
        RuntimeException failure = null;
        for (var pending : started) {
            if (failure != null) {
                pending.awaitQuietly(failure);
                continue;
            }
            try {
                results.add(pending.join());
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        started.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Deletes {@code keys} (none: no request). */
    void delete(Collection<String> keys) {
        if (!keys.isEmpty()) {
            objects.delete(keys);
        }
    }

    CorruptCheckpointException corrupt(String queueName, String item, String key, String problem, Throwable cause) {
        return new CorruptCheckpointException(
                queueName,
                KeyParts.decode(item).orElse(null),
                objects.location(key),
                problem + ", in queue '" + queueName + "'",
                cause);
    }
}
