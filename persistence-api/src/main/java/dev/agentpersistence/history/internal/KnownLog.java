package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import dev.agentpersistence.codec.LogEntryCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What the cache remembers of an agent's latest history in the message log: its messages, the path of log entries
 * holding them (contiguous from 0), the chain value after each entry and when the store last recorded a write of each
 * entry, where known, and which agent's log holds each entry (a fork's first entries are in its parents' logs). Entries
 * are found by where they end (binary search), so nothing is built per entry.
 *
 * <p>A log is a prefix of {@link LogArrays} it may share with the logs it was extended from and to: {@link #append}
 * writes the new entry in place when no other log extended these arrays first, so a save that extends the history costs
 * the same however long it is. Never mutated after construction but for its {@link DerivedIdMemo} and the
 * {@linkplain #dictionaryAt dictionary} at its end, computed once when not given; its messages are private (no JSON
 * container node is shared with a caller), so reads may answer from them.
 */
public final class KnownLog implements CachedHistory {
    private final LogArrays arrays;
    private final int entryCount;
    private final int messageCount;
    private final Instant oldestWrite;
    private final DerivedIdMemo derivedIds;
    private volatile byte[] endDictionary;
    /** {@link #bases()}, once computed; an appended entry is the agent's own, so it is handed on by {@link #append}. */
    private volatile List<LogBase> bases;

    /**
     * @param messages the whole history, the cache's own objects
     * @param entries the log entries holding it, in order
     * @param chains the chain value after each entry
     * @param written the last write time of each entry, {@code null} where unknown
     * @param owners the agent whose log holds each entry, {@code null} for the agent's own
     */
    public KnownLog(
            List<Message> messages,
            List<LogEntryId> entries,
            List<byte[]> chains,
            List<Instant> written,
            List<String> owners) {
        this(copy(messages, entries, chains, written, owners), entries.size(), messages.size(), oldest(written), null);
    }

    private KnownLog(LogArrays arrays, int entryCount, int messageCount, Instant oldestWrite, byte[] endDictionary) {
        this.arrays = arrays;
        this.entryCount = entryCount;
        this.messageCount = messageCount;
        this.oldestWrite = oldestWrite;
        this.derivedIds = new DerivedIdMemo(Arrays.asList(arrays.messages), arrays.derivedIds, messageCount);
        this.endDictionary = endDictionary;
    }

    /** A log of no entries, which a history is {@linkplain #append appended} to when nothing of it is known. */
    public static KnownLog empty() {
        return new KnownLog(LogArrays.copyOf(null, 0, 0, 0, 0), 0, 0, Instant.MAX, new byte[0]);
    }

    /**
     * This log followed by {@code entry}, holding {@code added} (the cache's own objects), whose chain value is
     * {@code chain}, written at {@code writtenAt}, with {@code endDictionary} the dictionary after it. Shares this
     * log's arrays when no other log extended them first; copies them otherwise.
     */
    public KnownLog append(
            LogEntryId entry, byte[] chain, Instant writtenAt, List<Message> added, byte[] endDictionary) {
        int end = messageCount + added.size();
        if (entry.from() != messageCount || entry.to() != end) {
            throw new IllegalArgumentException("log entry " + entry + " of " + added.size()
                    + " messages does not follow a log of " + messageCount);
        }
        LogArrays target = arrays.claim(entryCount, end)
                ? arrays
                : LogArrays.copyOf(arrays, entryCount, messageCount, end, entryCount + 1);
        for (int i = 0; i < added.size(); i++) {
            target.messages[messageCount + i] = added.get(i);
        }
        target.entries[entryCount] = entry;
        target.chains[entryCount] = chain;
        target.written[entryCount] = writtenAt;
        target.owners[entryCount] = null;
        Instant oldest = oldestWrite == null || writtenAt == null
                ? null
                : writtenAt.isBefore(oldestWrite) ? writtenAt : oldestWrite;
        var next = new KnownLog(target, entryCount + 1, end, oldest, endDictionary);
        next.bases = bases();
        return next;
    }

    /**
     * The first {@code keep} entries of this log, in arrays of its own, with {@code written} as their write times when
     * not {@code null}.
     */
    public KnownLog prefix(int keep, Instant[] written) {
        int end = keep == 0 ? 0 : arrays.entries[keep - 1].to();
        LogArrays copy = LogArrays.copyOf(arrays, keep, end, end, keep);
        if (written != null) {
            System.arraycopy(written, 0, copy.written, 0, keep);
        }
        return new KnownLog(copy, keep, end, oldest(Arrays.asList(copy.written).subList(0, keep)), null);
    }

    /**
     * This log as the start of a fork of {@code parentAgentId}: the same entries, those of the parent's own log now
     * owned by the parent, in arrays of its own.
     */
    public KnownLog asBaseOf(String parentAgentId) {
        LogArrays copy = LogArrays.copyOf(arrays, entryCount, messageCount, messageCount, entryCount);
        for (int i = 0; i < entryCount; i++) {
            if (copy.owners[i] == null) {
                copy.owners[i] = parentAgentId;
            }
        }
        return new KnownLog(copy, entryCount, messageCount, oldestWrite, endDictionary);
    }

    /** The agent whose log holds entry {@code index} of the path, {@code null} for the agent's own log. */
    public String owner(int index) {
        if (index >= entryCount) {
            throw new IndexOutOfBoundsException(index + " of " + entryCount + " entries");
        }
        return arrays.owners[index];
    }

    /**
     * The other agents' logs holding the path's first entries, oldest first: the last entry of each run of them. Only a
     * path's first entries are ever in other agents' logs (what a fork adds is its own).
     */
    public List<LogBase> bases() {
        List<LogBase> known = bases;
        if (known != null) {
            return known;
        }
        var found = new ArrayList<LogBase>();
        for (int i = 0; i < entryCount && arrays.owners[i] != null; i++) {
            String owner = arrays.owners[i];
            if (i + 1 == entryCount || !owner.equals(arrays.owners[i + 1])) {
                found.add(new LogBase(owner, arrays.entries[i]));
            }
        }
        known = List.copyOf(found);
        bases = known;
        return known;
    }

    /** The {@linkplain LogEntryCodec#dictionary dictionary} of an entry starting at message {@code position}. */
    public byte[] dictionaryAt(int position) {
        if (position != messageCount) {
            return LogEntryCodec.dictionary(messages(0, position));
        }
        byte[] end = endDictionary;
        if (end == null) {
            end = LogEntryCodec.dictionary(messages(0, messageCount));
            endDictionary = end;
        }
        return end;
    }

    @Override
    public int messageCount() {
        return messageCount;
    }

    @Override
    public DerivedIdMemo derivedIds() {
        return derivedIds;
    }

    /** How many log entries hold the history. */
    public int entryCount() {
        return entryCount;
    }

    /** The log entries of the history, in order. */
    public List<LogEntryId> entries() {
        return Collections.unmodifiableList(Arrays.asList(arrays.entries).subList(0, entryCount));
    }

    /** The last log entry, holding the end of the history; {@code null} for a log of no entries. */
    public LogEntryId lastEntry() {
        return entryCount == 0 ? null : arrays.entries[entryCount - 1];
    }

    /** The chain value after the first {@code count} entries: c(0) for none. */
    public byte[] chainAfter(int count) {
        if (count > entryCount) {
            throw new IndexOutOfBoundsException(count + " of " + entryCount + " entries");
        }
        return count == 0 ? ChainHasher.origin() : arrays.chains[count - 1];
    }

    /** The entry of this path ending at message {@code position}, or {@code null}. */
    public LogEntryId entryEndingAt(int position) {
        int count = countEndingAt(position);
        return count > 0 && arrays.entries[count - 1].to() == position ? arrays.entries[count - 1] : null;
    }

    /** The position of {@code entry} on this path, or -1. */
    public int indexOf(LogEntryId entry) {
        int count = countEndingAt(entry.to());
        return count > 0 && arrays.entries[count - 1].equals(entry) ? count - 1 : -1;
    }

    /**
     * How many of the entries {@code history} starts with: those all of whose messages are the known ones (same or
     * equal objects).
     */
    public int sharedEntries(List<Message> history) {
        int limit = Math.min(history.size(), messageCount);
        // one copy of the references beats a call through the List interface per message
        Object[] other = history.toArray();
        int mismatch = Arrays.mismatch(arrays.messages, 0, limit, other, 0, limit);
        return countEndingAt(mismatch < 0 ? limit : mismatch);
    }

    /**
     * The known messages {@code [from, to)}: shared, never handed to callers without
     * {@link dev.agentpersistence.internal.Isolation}.
     */
    public List<Message> messages(int from, int to) {
        if (to > messageCount) {
            throw new IndexOutOfBoundsException(to + " of " + messageCount + " messages");
        }
        return Collections.unmodifiableList(Arrays.asList(arrays.messages).subList(from, to));
    }

    /** When the store last recorded a write of entry {@code index} of the path, or {@code null} if unknown. */
    public Instant writtenAt(int index) {
        if (index >= entryCount) {
            throw new IndexOutOfBoundsException(index + " of " + entryCount + " entries");
        }
        return arrays.written[index];
    }

    /** The oldest write time of the path's entries, or {@code null} when one is unknown. */
    public Instant oldestWrite() {
        return oldestWrite;
    }

    /** Whether this is the history ending with {@code last}. */
    public boolean endsWith(LogEntryId last) {
        return entryCount > 0 && arrays.entries[entryCount - 1].equals(last);
    }

    /** How many entries end at or before {@code position}. */
    private int countEndingAt(int position) {
        int low = 0;
        int high = entryCount;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (arrays.entries[middle].to() <= position) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private static LogArrays copy(
            List<Message> messages,
            List<LogEntryId> entries,
            List<byte[]> chains,
            List<Instant> written,
            List<String> owners) {
        int end = entries.isEmpty() ? 0 : entries.get(entries.size() - 1).to();
        if (chains.size() != entries.size()
                || written.size() != entries.size()
                || owners.size() != entries.size()
                || end != messages.size()) {
            throw new IllegalArgumentException(entries.size() + " log entries ending at " + end + " with "
                    + chains.size() + " chain values and " + written.size() + " write times do not hold "
                    + messages.size() + " messages");
        }
        LogArrays arrays = LogArrays.copyOf(null, entries.size(), messages.size(), messages.size(), entries.size());
        for (int i = 0; i < messages.size(); i++) {
            arrays.messages[i] = messages.get(i);
        }
        for (int i = 0; i < entries.size(); i++) {
            arrays.entries[i] = entries.get(i);
            arrays.chains[i] = chains.get(i);
            arrays.written[i] = written.get(i);
            arrays.owners[i] = owners.get(i);
        }
        return arrays;
    }

    /** The oldest of {@code written}, {@link Instant#MAX} for none, {@code null} when one is unknown. */
    private static Instant oldest(List<Instant> written) {
        Instant oldest = Instant.MAX;
        for (Instant time : written) {
            if (time == null) {
                return null;
            }
            if (time.isBefore(oldest)) {
                oldest = time;
            }
        }
        return oldest;
    }
}
