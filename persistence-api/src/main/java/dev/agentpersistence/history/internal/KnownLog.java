package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cache remembers of an agent's latest history in the message log: its messages, the path of log entries
 * holding them (contiguous from 0), the chain value after each entry and when the store last recorded a write of each
 * entry, where known. Never mutated after construction but for its {@link DerivedIdMemo}; its messages are private (no
 * JSON container node is shared with a caller), so reads may answer from them.
 */
public final class KnownLog implements CachedHistory {
    private final List<Message> messages;
    private final List<LogEntryId> entries;
    private final List<byte[]> chains;
    private final Map<String, Instant> written;
    private final Map<String, Integer> indexes;
    private final DerivedIdMemo derivedIds;

    /**
     * @param messages the whole history, the cache's own objects
     * @param entries the log entries holding it, in order
     * @param chains the chain value after each entry
     * @param written the last write time of entries, by id text, where known
     */
    public KnownLog(
            List<Message> messages, List<LogEntryId> entries, List<byte[]> chains, Map<String, Instant> written) {
        int end = entries.isEmpty() ? 0 : entries.get(entries.size() - 1).to();
        if (chains.size() != entries.size() || end != messages.size()) {
            throw new IllegalArgumentException(entries.size() + " log entries ending at " + end + " with "
                    + chains.size() + " chain values do not hold " + messages.size() + " messages");
        }
        this.messages = messages;
        this.entries = List.copyOf(entries);
        this.chains = List.copyOf(chains);
        this.written = Map.copyOf(written);
        this.indexes = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            indexes.put(entries.get(i).text(), i);
        }
        this.derivedIds = new DerivedIdMemo(messages);
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
        int low = 0;
        int high = entries.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int to = entries.get(middle).to();
            if (to == position) {
                return entries.get(middle);
            }
            if (to < position) {
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return null;
    }

    /** The position of {@code entry} on this path, or -1. */
    public int indexOf(LogEntryId entry) {
        Integer index = indexes.get(entry.text());
        return index == null ? -1 : index;
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
        int count = 0;
        while (count < entries.size() && entries.get(count).to() <= same) {
            count++;
        }
        return count;
    }

    /**
     * The known messages {@code [from, to)}: shared, never handed to callers without
     * {@link dev.agentpersistence.internal.Isolation}.
     */
    public List<Message> messages(int from, int to) {
        return messages.subList(from, to);
    }

    /** When the store last recorded a write of the entry, if known. */
    public Instant writtenAt(LogEntryId entry) {
        return written.get(entry.text());
    }

    /** Whether this is the history ending with {@code last}. */
    public boolean endsWith(LogEntryId last) {
        return !entries.isEmpty() && entries.get(entries.size() - 1).equals(last);
    }
}
