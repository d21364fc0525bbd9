package dev.agentpersistence.queue;

import dev.agentpersistence.Identifiers;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * One item of a queue as stored: its id, the version its last write gave it, when it was submitted (the queue's order),
 * from when a worker may take it ({@code null}: not now, for example while it waits or runs), whether it is finished,
 * and its body, which the store keeps as given (the storage shell wraps it in the store's compression, checksum and
 * encryption layers).
 *
 * @param id the item's id within its queue, checked like an agent id
 * @param version 1 for the first write of an item, one more for each later write
 * @param submittedAt when the item was submitted; items are listed by it, then by id
 * @param runnableAt from when a worker may take the item, or {@code null} when it may not
 * @param finished whether the item is done for good (finished items are trimmed by {@link QueueStore#deleteFinished})
 * @param body the caller's bytes, not copied
 */
public record QueueItem(
        String id, long version, Instant submittedAt, Instant runnableAt, boolean finished, byte[] body) {
    /** The order of a queue's items ({@link QueueStore#items}): by submission time, then by id. */
    public static final Comparator<QueueItem> ORDER =
            Comparator.comparing(QueueItem::submittedAt).thenComparing(QueueItem::id);

    public QueueItem {
        Identifiers.requireValid(id, "queue item id");
        if (version < 1) {
            throw new IllegalArgumentException("A queue item's version starts at 1 but was " + version);
        }
        toEpochNanos(Objects.requireNonNull(submittedAt, "submittedAt"));
        if (runnableAt != null) {
            toEpochNanos(runnableAt);
        }
        Objects.requireNonNull(body, "body");
    }

    /**
     * {@code time} in nanoseconds since the epoch, the form stores keep a queue item's times in: exact, for every time
     * between the years 1677 and 2262 (the only times an item accepts).
     *
     * @throws IllegalArgumentException for a time outside that range
     */
    public static long toEpochNanos(Instant time) {
        try {
            return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("A queue item's time must lie between the years 1677 and 2262: " + time);
        }
    }

    /** The time {@code nanos} nanoseconds after the epoch: the inverse of {@link #toEpochNanos}. */
    public static Instant ofEpochNanos(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    /** Whether a worker may take the item at {@code now}. */
    public boolean isRunnableAt(Instant now) {
        return !finished && runnableAt != null && !runnableAt.isAfter(now);
    }

    /** The same item with another body (the shell's layers wrap and unwrap it). */
    public QueueItem withBody(byte[] newBody) {
        return new QueueItem(id, version, submittedAt, runnableAt, finished, newBody);
    }

    /** Compares the body by content. */
    @Override
    public boolean equals(Object other) {
        return other instanceof QueueItem item
                && id.equals(item.id)
                && version == item.version
                && submittedAt.equals(item.submittedAt)
                && Objects.equals(runnableAt, item.runnableAt)
                && finished == item.finished
                && Arrays.equals(body, item.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, version, submittedAt, runnableAt, finished, Arrays.hashCode(body));
    }

    @Override
    public String toString() {
        return "QueueItem[" + id + " v" + version + ", submitted " + submittedAt + ", runnable " + runnableAt
                + (finished ? ", finished" : "") + ", " + body.length + " bytes]";
    }
}
