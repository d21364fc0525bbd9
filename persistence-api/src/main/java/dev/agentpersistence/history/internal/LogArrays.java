package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Arrays that successive {@link KnownLog}s of one agent share, so that a save extending the history adds its entry
 * without copying the history. Each log reads a prefix of them. A slot, once written, never changes; the next free
 * entry slot (and the message slots after the last entry) goes to the first log that {@linkplain #claim claims} it, and
 * any other log that wants to extend copies its prefix into new arrays.
 */
final class LogArrays {
    final Message[] messages;
    /** The id derived on reading for the message in the same slot, where one was derived. */
    final String[] derivedIds;

    final LogEntryId[] entries;
    final byte[][] chains;
    final Instant[] written;
    /** The agent whose log holds the entry in the same slot, {@code null} for the agent's own log. */
    final String[] owners;

    private final AtomicInteger claimedEntries;

    private LogArrays(int messageCapacity, int entryCapacity, int claimedEntries) {
        this.messages = new Message[messageCapacity];
        this.derivedIds = new String[messageCapacity];
        this.entries = new LogEntryId[entryCapacity];
        this.chains = new byte[entryCapacity][];
        this.written = new Instant[entryCapacity];
        this.owners = new String[entryCapacity];
        this.claimedEntries = new AtomicInteger(claimedEntries);
    }

    /**
     * New arrays holding the first {@code entryCount} entries and {@code messageCount} messages of {@code from} (none
     * when {@code from} is {@code null}), with room for {@code messageRoom} messages and one entry more, whose first
     * {@code claimed} entry slots are taken (the caller writes those it did not copy).
     */
    static LogArrays copyOf(LogArrays from, int entryCount, int messageCount, int messageRoom, int claimed) {
        var copy = new LogArrays(grown(messageRoom), grown(entryCount + 1), claimed);
        if (from != null) {
            System.arraycopy(from.messages, 0, copy.messages, 0, messageCount);
            System.arraycopy(from.derivedIds, 0, copy.derivedIds, 0, messageCount);
            System.arraycopy(from.entries, 0, copy.entries, 0, entryCount);
            System.arraycopy(from.chains, 0, copy.chains, 0, entryCount);
            System.arraycopy(from.written, 0, copy.written, 0, entryCount);
            System.arraycopy(from.owners, 0, copy.owners, 0, entryCount);
        }
        return copy;
    }

    /**
     * Whether a log of the first {@code entryCount} entries may write the next entry slot and the message slots up to
     * {@code messageEnd} in place: there is room, and no other log claimed the slot first. True once per slot.
     */
    boolean claim(int entryCount, int messageEnd) {
        return entryCount < entries.length
                && messageEnd <= messages.length
                && claimedEntries.compareAndSet(entryCount, entryCount + 1);
    }

    /**
     * Half as much room again, so that a history growing one entry at a time is copied a logarithmic number of times.
     */
    private static int grown(int needed) {
        return Math.max(16, needed + (needed >> 1));
    }
}
