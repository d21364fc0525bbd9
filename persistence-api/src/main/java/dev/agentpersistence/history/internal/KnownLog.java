package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import dev.agentpersistence.codec.LogEntryCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the cache remembers of an agent's latest history in the message log: its messages, the path of log entries
 * holding them (contiguous from 0), the chain value after each entry and when the store last recorded a write of each
 * entry, where known. Entries are found by where they end (binary search), so nothing is built per entry. Never mutated
 * after construction but for its {@link DerivedIdMemo} and the {@linkplain #dictionaryAt dictionary} at its end,
 * computed once when not given; its messages are private (no JSON container node is shared with a caller), so reads may
 * answer from them.
 */
public final class KnownLog implements CachedHistory {
    private final List<Message> messages;
    private final List<LogEntryId> entries;
    private final List<byte[]> chains;
    private final List<Instant> written;
    private final Instant oldestWrite;
    private final DerivedIdMemo derivedIds;
    private volatile byte[] endDictionary;

    /**
     * @param messages the whole history, the cache's own objects
     * @param entries the log entries holding it, in order
     * @param chains the chain value after each entry
     * @param written the last write time of each entry, {@code null} where unknown
     */
    public KnownLog(List<Message> messages, List<LogEntryId> entries, List<byte[]> chains, List<Instant> written) {
        this(messages, entries, chains, written, null);
    }

    /**
     * As the four-argument constructor, with the dictionary after the whole history when known ({@code null} computes
     * it on first use).
     */
    public KnownLog(
            List<Message> messages,
            List<LogEntryId> entries,
            List<byte[]> chains,
            List<Instant> written,
            byte[] endDictionary) {
        int end = entries.isEmpty() ? 0 : entries.get(entries.size() - 1).to();
        if (chains.size() != entries.size() || written.size() != entries.size() || end != messages.size()) {
            throw new IllegalArgumentException(entries.size() + " log entries ending at " + end + " with "
                    + chains.size() + " chain values and " + written.size() + " write times do not hold "
                    + messages.size() + " messages");
        }
        this.messages = messages;
        this.entries = List.copyOf(entries);
        this.chains = List.copyOf(chains);
        this.written = Collections.unmodifiableList(new ArrayList<>(written));
        Instant oldest = Instant.MAX;
        for (Instant time : written) {
            if (time == null) {
                oldest = null;
                break;
            }
            if (time.isBefore(oldest)) {
                oldest = time;
            }
        }
        this.oldestWrite = oldest;
        this.derivedIds = new DerivedIdMemo(messages);
        this.endDictionary = endDictionary;
    }

    /** The {@linkplain LogEntryCodec#dictionary dictionary} of an entry starting at message {@code position}. */
    public byte[] dictionaryAt(int position) {
        if (position != messages.size()) {
            return LogEntryCodec.dictionary(messages.subList(0, position));
        }
        byte[] end = endDictionary;
        if (end == null) {
            end = LogEntryCodec.dictionary(messages);
            endDictionary = end;
        }
        return end;
    }

    @Override
    public int messageCount() {
        return messages.size();
    }

    @Override
    public DerivedIdMemo derivedIds() {
        return derivedIds;
    }

    /** The log entries of the history, in order. */
    public List<LogEntryId> entries() {
        return entries;
    }

    /** The chain value after the first {@code count} entries: c(0) for none. */
    public byte[] chainAfter(int count) {
        return count == 0 ? ChainHasher.origin() : chains.get(count - 1);
    }

    /** The entry of this path ending at message {@code position}, or {@code null}. */
    public LogEntryId entryEndingAt(int position) {
        int count = countEndingAt(position);
        return count > 0 && entries.get(count - 1).to() == position ? entries.get(count - 1) : null;
    }

    /** The position of {@code entry} on this path, or -1. */
    public int indexOf(LogEntryId entry) {
        int count = countEndingAt(entry.to());
        return count > 0 && entries.get(count - 1).equals(entry) ? count - 1 : -1;
    }

    /**
     * How many of the entries {@code history} starts with: those all of whose messages are the known ones (same or
     * equal objects).
     */
    public int sharedEntries(List<Message> history) {
        int limit = Math.min(history.size(), messages.size());
        int same = 0;
        while (same < limit) {
            Message known = messages.get(same);
            Message other = history.get(same);
            if (known != other && !known.equals(other)) {
                break;
            }
            same++;
        }
        return countEndingAt(same);
    }

    /**
     * The known messages {@code [from, to)}: shared, never handed to callers without
     * {@link dev.agentpersistence.internal.Isolation}.
     */
    public List<Message> messages(int from, int to) {
        return messages.subList(from, to);
    }

    /** When the store last recorded a write of entry {@code index} of the path, or {@code null} if unknown. */
    public Instant writtenAt(int index) {
        return written.get(index);
    }

    /** The oldest write time of the path's entries, or {@code null} when one is unknown. */
    public Instant oldestWrite() {
        return oldestWrite;
    }

    /** Whether this is the history ending with {@code last}. */
    public boolean endsWith(LogEntryId last) {
        return !entries.isEmpty() && entries.get(entries.size() - 1).equals(last);
    }

    /** How many entries end at or before {@code position}. */
    private int countEndingAt(int position) {
        int low = 0;
        int high = entries.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (entries.get(middle).to() <= position) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
