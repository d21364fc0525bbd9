package dev.agentpersistence.history.internal;

import dev.agentpersistence.codec.LogEntryCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The message text of a history as it is assembled from its log entries, entry by entry, so that each entry is read
 * against the {@linkplain LogEntryCodec#dictionary dictionary} of the history before it. Only the last texts are looked
 * at; the history's start (a cached path) is asked for its dictionary only when they are too short.
 */
final class LogText {
    private final Supplier<byte[]> start;
    private final List<byte[]> texts = new ArrayList<>();

    /** @param start the dictionary at the end of the messages before the first added text */
    LogText(Supplier<byte[]> start) {
        this.start = start;
    }

    /** Appends the message text of the next entry. */
    void add(byte[] text) {
        texts.add(text);
    }

    /** The dictionary of the entry after the texts added so far. */
    byte[] dictionary() {
        long size = 0;
        int first = texts.size();
        while (first > 0 && size < LogEntryCodec.DICTIONARY_SIZE) {
            size += texts.get(--first).length;
        }
        byte[] head = first == 0 && size < LogEntryCodec.DICTIONARY_SIZE ? start.get() : new byte[0];
        return LogEntryCodec.dictionary(head, texts.subList(first, texts.size()));
    }
}
