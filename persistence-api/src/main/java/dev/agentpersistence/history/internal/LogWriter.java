package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.LogEntryCodec;
import dev.agentpersistence.internal.Isolation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
     * the segments to put into other agents' logs before it (entries of a fork's bases put again, and the markers
     * naming the fork, by agent), what the cache learns once they are stored ({@code null} when there is nothing to
     * learn) and how many of the history's first messages are the cache's (equal to messages saved or read before).
     */
    public record Prepared(
            AgentCheckpoint storedForm,
            Map<String, byte[]> segments,
            Map<String, Map<String, byte[]>> baseSegments,
            KnownLog next,
            int cachedMessages) {
        public Prepared {
            segments = Collections.unmodifiableMap(new LinkedHashMap<>(segments));
            baseSegments = baseSegments.isEmpty()
                    ? Map.of() // every save but a fork's or one refreshing a fork's bases
                    : Collections.unmodifiableMap(new LinkedHashMap<>(baseSegments));
        }
    }

    /** The stored form of {@code checkpoint} (itself for short histories) and the log entries it needs. */
    public Prepared prepare(String agentId, AgentCheckpoint checkpoint) {
        return prepare(agentId, checkpoint, cache.log(agentId), false);
    }

    /**
     * The stored form of the first checkpoint of a fork of {@code parentAgentId}, whose history is exactly
     * {@code parentLog}'s: it references the parent's log entries instead of copying them, and a marker naming the fork
     * is put into the log of every agent that holds some of them.
     */
    public Prepared prepareFork(String agentId, AgentCheckpoint checkpoint, String parentAgentId, KnownLog parentLog) {
        return prepare(agentId, checkpoint, parentLog.asBaseOf(parentAgentId), true);
    }

    private Prepared prepare(String agentId, AgentCheckpoint checkpoint, KnownLog known, boolean fork) {
        List<Message> history = checkpoint.messageHistory();
        int size = history.size();
        if (size < inlineBelow || size == 0) {
            return new Prepared(checkpoint, Map.of(), Map.of(), null, 0);
        }
        var segments = new LinkedHashMap<String, byte[]>();
        var baseSegments = new LinkedHashMap<String, Map<String, byte[]>>();
        int shared = known == null ? 0 : known.sharedEntries(history);
        Instant now = clock.instant();
        KnownLog next = shared == 0 ? KnownLog.empty() : kept(agentId, known, shared, now, segments, baseSegments);
        if (fork) {
            next.bases().forEach(base -> marker(baseSegments, base.agentId(), agentId));
        }
        int from = next.messageCount();
        if (from < size) {
            List<Message> added = history.subList(from, size);
            byte[] start = next.chainAfter(next.entryCount());
            byte[] end = hasher.next(start, added);
            LogEntryId entry = LogEntryId.of(from, size, start, end);
            byte[] dictionary = next.dictionaryAt(from);
            var put = codec.encodeEntry(agentId, entry.text(), added, dictionary);
            segments.put(entry.text(), put.stored());
            byte[] after = LogEntryCodec.dictionary(dictionary, List.of(put.text()));
            next = next.append(entry, end, now, Isolation.copy(added), after);
        }
        var storedForm = checkpoint.toBuilder()
                .messageHistory(List.of())
                .metadata(descriptorKey, new LogDescriptor(size, next.lastEntry(), next.bases()).toJson())
                .build();
        return new Prepared(storedForm, segments, baseSegments, next, from);
    }

    /** Adds the marker naming {@code fork} to what is put into {@code owner}'s log. */
    private static void marker(Map<String, Map<String, byte[]>> baseSegments, String owner, String fork) {
        baseSegments
                .computeIfAbsent(owner, o -> new LinkedHashMap<>())
                .put(ForkMarker.id(fork), ForkMarker.content(fork));
    }

    /**
     * The first {@code shared} entries of {@code known}, the ones a save keeps; when this process does not know every
     * one of them to be written recently, each it does not know so is put again (added to {@code segments}, or for an
     * entry of another agent's log to {@code baseSegments}, with the marker naming this agent).
     */
    private KnownLog kept(
            String agentId,
            KnownLog known,
            int shared,
            Instant now,
            Map<String, byte[]> segments,
            Map<String, Map<String, byte[]>> baseSegments) {
        if (!stale(known.oldestWrite(), now)) {
            return shared == known.entryCount() ? known : known.prefix(shared, null);
        }
        var written = new Instant[shared];
        var refreshed = new LogText(() -> new byte[0]);
        List<LogEntryId> entries = known.entries();
        for (int i = 0; i < shared; i++) {
            LogEntryId entry = entries.get(i);
            List<Message> held = known.messages(entry.from(), entry.to());
            written[i] = known.writtenAt(i);
            if (stale(written[i], now)) {
                String owner = known.owner(i);
                var put =
                        codec.encodeEntry(owner == null ? agentId : owner, entry.text(), held, refreshed.dictionary());
                if (owner == null) {
                    segments.put(entry.text(), put.stored());
                } else {
                    marker(baseSegments, owner, agentId);
                    baseSegments.get(owner).put(entry.text(), put.stored());
                }
                refreshed.add(put.text());
                written[i] = now;
            } else {
                refreshed.add(LogEntryCodec.text(held));
            }
        }
        return known.prefix(shared, written);
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
        cache.put(
                agentId,
                new KnownLog(Isolation.copy(history), path.entries(), path.chains(), path.written(), path.owners()));
    }

    private boolean stale(Instant last, Instant now) {
        return last == null || last.isAfter(now) || !last.isAfter(now.minus(rewriteAfter));
    }
}
