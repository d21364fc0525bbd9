package dev.agentpersistence.s3.internal;

import java.util.Optional;

/**
 * The name of an entry of a queue's finished index: {@code <submitted>.<item>}, the time as
 * {@link KeyLayout#sortableTime}, so that a listing comes oldest first. Written by the writer of a finished version,
 * read by {@code deleteFinished}, which checks the item it names before deleting anything.
 *
 * @param submittedAt the finished item's submission time, epoch nanoseconds
 * @param item the item id's key part
 */
record FinishedEntry(long submittedAt, String item) {
    String leaf() {
        return KeyLayout.sortableTime(submittedAt) + "." + item;
    }

    /** The entry a leaf names; empty for any other name. */
    static Optional<FinishedEntry> parse(String leaf) {
        int dot = leaf.indexOf('.');
        if (dot < 0 || dot == leaf.length() - 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new FinishedEntry(KeyLayout.ofSortableTime(leaf.substring(0, dot)), leaf.substring(dot + 1)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
