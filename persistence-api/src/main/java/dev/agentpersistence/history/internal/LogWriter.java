package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.LogEntryCodec;
import dev.agentpersistence.internal.Isolation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Prepares a checkpoint for storage in the message log layout: a history of at least {@code inlineBelow} messages is
 * kept in the agent's log, and the checkpoint keeps only a {@link LogDescriptor}. The messages after the longest path
 * of log entries the cached history shares with this one are stored as one new entry (create-if-absent, before the
 * checkpoint or with it, so a crash leaves at worst an unreferenced entry); an extending save thus writes only its new
 * messages, and a rollback or edit rewrites the messages from the last shared entry on. Without a cached history the
 * whole history becomes one entry. {@link #prepare} writes nothing: the caller stores the {@link Prepared#segments()}
 * with the checkpoint record (segments first, or in the same atomic write) and then calls {@link #stored}.
 *
 * <p>Each entry is stored in the {@link LogEntryCodec} form, compressed against the message text of the history before
 * it (the cache keeps the dictionary at its end, so a save encodes only its new messages).
 *
 * <p>An entry of the path whose last write this process does not know to be younger than a quarter of the grace period
 * is put again (from the cached messages), which recreates it if it was collected and refreshes its write time
 * otherwise, so that garbage collection cannot remove it under a save in flight.
 */
public final class LogWriter {
    private final SegmentCodec codec;
    private final ChainHasher hasher;
    private final ChainCache cache;
    private final Clock clock;
    private final int inlineBelow;
    private final Duration rewriteAfter;
    private final String descriptorKey;

    public LogWriter(
            SegmentCodec codec,
            ChainHasher hasher,
            ChainCache cache,
            Clock clock,
            int inlineBelow,
            Duration gracePeriod,
            String descriptorKey) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.hasher = Objects.requireNonNull(hasher, "hasher");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.inlineBelow = inlineBelow;
        this.rewriteAfter = gracePeriod.dividedBy(4);
        this.descriptorKey = Objects.requireNonNull(descriptorKey, "descriptorKey");
    }

    /**
     * A checkpoint's stored form, the log entries to store with it (new, or put again to refresh them) in write order,
     * and what the cache learns once they are stored ({@code null} when there is nothing to learn).
     */
    public record Prepared(AgentCheckpoint storedForm, Map<String, byte[]> segments, KnownLog next) {
        public Prepared {
            segments = Collections.unmodifiableMap(new LinkedHashMap<>(segments));
        }
    }

    /** The stored form of {@code checkpoint} (itself for short histories) and the log entries it needs. */
    public Prepared prepare(String agentId, AgentCheckpoint checkpoint) {
        List<Message> history = checkpoint.messageHistory();
        int size = history.size();
        if (size < inlineBelow) {
            return new Prepared(checkpoint, Map.of(), null);
        }
        var segments = new LinkedHashMap<String, byte[]>();
        KnownLog known = cache.log(agentId);
        int shared = known == null ? 0 : known.sharedEntries(history);
        var entries = new ArrayList<LogEntryId>(shared + 1);
        var chains = new ArrayList<byte[]>(shared + 1);
        var written = new ArrayList<Instant>(shared + 1);
        Instant now = clock.instant();
        boolean refresh = shared > 0 && stale(known.oldestWrite(), now);
        LogText refreshed = refresh ? new LogText(() -> new byte[0]) : null;
        for (int i = 0; i < shared; i++) {
            LogEntryId entry = known.entries().get(i);
            Instant last = known.writtenAt(i);
            if (refresh) {
                List<Message> held = known.messages(entry.from(), entry.to());
                if (stale(last, now)) {
                    var put = codec.encodeEntry(agentId, entry.text(), held, refreshed.dictionary());
                    segments.put(entry.text(), put.stored());
                    refreshed.add(put.text());
                    last = now;
                } else {
                    refreshed.add(LogEntryCodec.text(held));
                }
            }
            written.add(last);
        }
        if (shared > 0) {
            entries.addAll(known.entries().subList(0, shared));
            for (int i = 1; i <= shared; i++) {
                chains.add(known.chainAfter(i));
            }
        }
        int from = shared == 0 ? 0 : entries.get(shared - 1).to();
        var messages = new ArrayList<Message>(size);
        if (from > 0) {
            messages.addAll(known.messages(0, from));
        }
        byte[] dictionary = from == 0 ? new byte[0] : known.dictionaryAt(from);
        if (from < size) {
            List<Message> added = history.subList(from, size);
            byte[] start = known == null ? ChainHasher.origin() : known.chainAfter(shared);
            byte[] end = hasher.next(start, added);
            LogEntryId entry = LogEntryId.of(from, size, start, end);
            var put = codec.encodeEntry(agentId, entry.text(), added, dictionary);
            segments.put(entry.text(), put.stored());
            dictionary = LogEntryCodec.dictionary(dictionary, List.of(put.text()));
            entries.add(entry);
            chains.add(end);
            written.add(now);
            messages.addAll(Isolation.copy(added));
        }
        var next = new KnownLog(messages, entries, chains, written, dictionary);
        if (known != null) {
            next.derivedIds().inherit(known.derivedIds(), from);
        }
        var storedForm = checkpoint.toBuilder()
                .messageHistory(List.of())
                .metadata(descriptorKey, new LogDescriptor(size, entries.get(entries.size() - 1)).toJson())
                .build();
        return new Prepared(storedForm, segments, next);
    }

    /** Remembers what {@code prepared} stored, once its segments are stored, so that the next save extends it. */
    public void stored(String agentId, Prepared prepared) {
        if (prepared.next() != null) {
            cache.put(agentId, prepared.next());
        }
    }

    /** Remembers a history read back from the log, so that the next save extending it writes only new messages. */
    public void remember(String agentId, HistoryReader.Assembled assembled) {
        LogPath path = assembled.log();
        if (path == null || path.entries().isEmpty()) {
            return;
        }
        LogEntryId last = path.entries().get(path.entries().size() - 1);
        KnownLog current = cache.log(agentId);
        if (current != null && current.endsWith(last)) {
            return; // already known, with the times this process wrote its entries
        }
        List<Message> history = assembled.checkpoint().messageHistory();
        cache.put(agentId, new KnownLog(Isolation.copy(history), path.entries(), path.chains(), path.written()));
    }

    private boolean stale(Instant last, Instant now) {
        return last == null || last.isAfter(now) || !last.isAfter(now.minus(rewriteAfter));
    }
}
