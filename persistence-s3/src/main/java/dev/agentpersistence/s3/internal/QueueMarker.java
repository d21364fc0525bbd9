package dev.agentpersistence.s3.internal;

import dev.agentpersistence.queue.QueueItem;
import java.util.Optional;

/**
 * The name of an open-item marker: an empty object that says "item {@code item} may be unfinished at {@code version}",
 * so that claims list these instead of every item. Its leaf is
 * {@code <submitted>.<item>.<generation>.<version>.<runnable or ->}, the times as {@link KeyLayout#sortableTime}, so a
 * listing comes in submission order and tells, without a read, which items may be runnable. A marker is only a
 * candidate: the item it names decides.
 *
 * @param submittedAt the item's submission time, epoch nanoseconds
 * @param item the item id's key part
 * @param generation the item's generation (chosen by its first write, see {@link QueueFormat})
 * @param version the version whose writer put the marker
 * @param runnableAt that version's runnable time in epoch nanoseconds, or {@code null}
 */
record QueueMarker(long submittedAt, String item, String generation, long version, Long runnableAt) {
    /** The marker of an unfinished {@code item} of {@code generation}. */
    static QueueMarker of(QueueItem item, String generation) {
        return new QueueMarker(
                QueueItem.toEpochNanos(item.submittedAt()),
                KeyParts.encode(item.id()),
                generation,
                item.version(),
                item.runnableAt() == null ? null : QueueItem.toEpochNanos(item.runnableAt()));
    }

    String leaf() {
        return KeyLayout.sortableTime(submittedAt) + "." + item + "." + generation + "." + version + "."
                + (runnableAt == null ? "-" : KeyLayout.sortableTime(runnableAt));
    }

    /** Whether the version it marks was runnable at {@code nanos}. */
    boolean runnableBy(long nanos) {
        return runnableAt != null && runnableAt <= nanos;
    }

    /** The marker a leaf names; empty for any other name. */
    static Optional<QueueMarker> parse(String leaf) {
        String[] parts = leaf.split("\\.", -1);
        if (parts.length != 5 || parts[1].isEmpty() || !QueueFormat.isGeneration(parts[2])) {
            return Optional.empty();
        }
        try {
            long version = Long.parseLong(parts[3]);
            Long runnable = parts[4].equals("-") ? null : KeyLayout.ofSortableTime(parts[4]);
            return version < 1
                    ? Optional.empty()
                    : Optional.of(
                            new QueueMarker(KeyLayout.ofSortableTime(parts[0]), parts[1], parts[2], version, runnable));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
