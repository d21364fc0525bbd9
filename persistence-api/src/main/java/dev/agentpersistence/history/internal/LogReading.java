package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.codec.LogEntryCodec;
import dev.agentpersistence.internal.Isolation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assembles the histories of one read that are kept in the agent's message log. Each history's path is followed back
 * from its last entry: through the cached path where it joins it, else through one listing of the agent's segments
 * (made only when needed). The entries none of the cached paths hold are fetched in one
 * {@link HistorySegmentStore#getSegments} call, each decoded once (against the message text of the history before it,
 * {@link LogText}) and checked against the hash chain value its id names.
 */
final class LogReading {
    private final String agentId;
    private final HistorySegmentStore store;
    private final SegmentCodec codec;
    private final ChainHasher hasher;
    private final String descriptorKey;
    private final String storeName;
    private final KnownLog known;
    private LogIndex index;
    private final Map<String, LogEntryCodec.Read> decoded = new HashMap<>();
    private Map<String, byte[]> fetched = Map.of();

    LogReading(
            String agentId,
            HistorySegmentStore store,
            SegmentCodec codec,
            ChainHasher hasher,
            String descriptorKey,
            String storeName,
            KnownLog known) {
        this.agentId = agentId;
        this.store = store;
        this.codec = codec;
        this.hasher = hasher;
        this.descriptorKey = descriptorKey;
        this.storeName = storeName;
        this.known = known;
    }

    /** One history's path: how many cached entries it starts with and the entries after them, in order. */
    record Route(int cached, List<LogEntryId> rest) {}

    /** Follows the history of {@code stored} back from {@code descriptor}'s last entry. */
    Route route(AgentCheckpoint stored, LogDescriptor descriptor) {
        var rest = new ArrayList<LogEntryId>();
        LogEntryId entry = descriptor.last();
        while (true) {
            int cached = known == null ? -1 : known.indexOf(entry);
            if (cached >= 0) {
                Collections.reverse(rest);
                return new Route(cached + 1, rest);
            }
            rest.add(entry);
            if (entry.from() == 0) {
                if (!entry.follows(ChainHasher.origin())) {
                    throw corrupt(stored, "the first log entry '" + entry + "' does not start at the origin");
                }
                Collections.reverse(rest);
                return new Route(0, rest);
            }
            if (rest.size() > descriptor.size()) {
                throw corrupt(stored, "the message log entries form a cycle");
            }
            entry = predecessor(stored, entry);
        }
    }

    private LogEntryId predecessor(AgentCheckpoint stored, LogEntryId entry) {
        LogEntryId cached = known == null ? null : known.entryEndingAt(entry.from());
        if (cached != null && cached.precedes(entry)) {
            return cached;
        }
        if (index == null) {
            index = new LogIndex(store.listSegments(agentId));
        }
        List<LogEntryId> found = index.predecessors(entry);
        if (found.isEmpty()) {
            throw corrupt(
                    stored,
                    "the message log entry holding the messages before " + entry.from() + " (the one '" + entry
                            + "' follows) is missing");
        }
        return found.get(0); // two would need a 64-bit collision; the chain check below refuses a wrong one
    }

    /** Fetches, in one call, every entry of {@code routes} not fetched yet. */
    void fetch(List<Route> routes) {
        Set<String> ids = new LinkedHashSet<>();
        for (Route route : routes) {
            for (LogEntryId entry : route.rest()) {
                ids.add(entry.text());
            }
        }
        ids.removeAll(fetched.keySet());
        if (!ids.isEmpty()) {
            var all = new HashMap<>(fetched);
            all.putAll(store.getSegments(agentId, ids));
            fetched = all;
        }
    }

    /** The complete checkpoint and its path; {@link #fetch} must have been called with its route. */
    HistoryReader.Assembled assemble(AgentCheckpoint stored, LogDescriptor descriptor, Route route) {
        if (!stored.messageHistory().isEmpty()) {
            throw corrupt(stored, "a checkpoint whose history is in the message log holds messages itself");
        }
        var entries = new ArrayList<LogEntryId>(route.cached() + route.rest().size());
        var chains = new ArrayList<byte[]>(entries.size());
        var written = new ArrayList<Instant>(entries.size());
        var history = new ArrayList<Message>(descriptor.size());
        if (route.cached() > 0) {
            entries.addAll(known.entries().subList(0, route.cached()));
            for (int i = 0; i < route.cached(); i++) {
                chains.add(known.chainAfter(i + 1));
                written.add(known.writtenAt(i));
            }
            for (Message message :
                    known.messages(0, entries.get(route.cached() - 1).to())) {
                history.add(Isolation.copy(message));
            }
        }
        byte[] chain = known == null ? ChainHasher.origin() : known.chainAfter(route.cached());
        int start = history.size();
        var text = new LogText(() -> start == 0 ? new byte[0] : known.dictionaryAt(start));
        for (LogEntryId entry : route.rest()) {
            if (!entry.follows(chain) || entry.from() != history.size()) {
                throw corrupt(stored, "the message log entry '" + entry + "' does not follow the one before it");
            }
            LogEntryCodec.Read read = read(stored, entry, text);
            List<Message> messages = Isolation.copy(read.messages());
            text.add(read.text());
            chain = hasher.next(chain, messages);
            if (!entry.endsWith(chain)) {
                throw corrupt(stored, entry, "the message log entry does not hold the messages its id names", null);
            }
            entries.add(entry);
            chains.add(chain);
            written.add(index == null ? null : index.writtenAt(entry));
            history.addAll(messages);
        }
        if (history.size() != descriptor.size()) {
            throw corrupt(
                    stored,
                    "the descriptor counts " + descriptor.size() + " messages but the log holds " + history.size());
        }
        return new HistoryReader.Assembled(
                HistoryReader.complete(stored, history, descriptorKey), 0, null, new LogPath(entries, chains, written));
    }

    /**
     * The decoded entry, decoded once per read against the dictionary of the history before it; its messages are the
     * first objects, which the caller copies.
     */
    private LogEntryCodec.Read read(AgentCheckpoint stored, LogEntryId entry, LogText text) {
        String id = entry.text();
        LogEntryCodec.Read read = decoded.get(id);
        if (read != null) {
            return read; // an entry id names the history before it, so its dictionary too
        }
        byte[] bytes = fetched.get(id);
        if (bytes == null) {
            throw corrupt(
                    stored,
                    entry,
                    "the message log entry holding messages " + entry.from() + " to " + (entry.to() - 1)
                            + " of the history is missing",
                    null);
        }
        try {
            read = codec.decodeEntry(agentId, id, bytes, where(entry), text.dictionary());
        } catch (CorruptCheckpointException e) {
            throw corrupt(stored, entry, "the message log entry is unreadable: " + e.getMessage(), e);
        }
        if (read.messages().size() != entry.length()) {
            throw corrupt(
                    stored,
                    entry,
                    "the entry holds " + read.messages().size() + " messages instead of " + entry.length(),
                    null);
        }
        decoded.put(id, read);
        return read;
    }

    private String where(LogEntryId entry) {
        return "message log entry '" + entry + "' in " + storeName;
    }

    private CorruptCheckpointException corrupt(
            AgentCheckpoint stored, LogEntryId entry, String problem, Throwable cause) {
        return new CorruptCheckpointException(agentId, stored.checkpointId(), where(entry), problem, cause);
    }

    private CorruptCheckpointException corrupt(AgentCheckpoint stored, String problem) {
        return new CorruptCheckpointException(
                agentId,
                stored.checkpointId(),
                "metadata entry '" + descriptorKey + "' in " + storeName,
                problem,
                null);
    }
}
