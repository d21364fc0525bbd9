package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.codec.LogEntryCodec;
import dev.agentpersistence.internal.Isolation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assembles the histories of one read that are kept in the agent's message log. Each history's path is followed back
 * from its last entry: through the cached path where it joins it, else through one listing of the agent's segments
 * (made only when needed). A fork's path goes on in its parents' logs at the entries its descriptor names
 * ({@link LogBase}), listed the same way. The entries none of the cached paths hold are fetched in one
 * {@link HistorySegmentStore#getSegments} call per log, each decoded once (against the message text of the history
 * before it, {@link LogText}) and checked against the hash chain value its id names.
 */
final class LogReading {
    private final String agentId;
    private final HistorySegmentStore store;
    private final SegmentCodec codec;
    private final ChainHasher hasher;
    private final String descriptorKey;
    private final String storeName;
    private final KnownLog known;
    /** Listings by the agent whose log they list, made only when needed. */
    private final Map<String, LogIndex> indexes = new HashMap<>();

    private final Map<String, LogEntryCodec.Read> decoded = new HashMap<>();
    /** Fetched entries by the agent whose log holds them. */
    private final Map<String, Map<String, byte[]>> fetched = new HashMap<>();

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

    /**
     * One history's path: how many cached entries it starts with, the entries after them in order, and the agent whose
     * log holds each of those.
     */
    record Route(int cached, List<LogEntryId> rest, List<String> owners) {}

    /** Follows the history of {@code stored} back from {@code descriptor}'s last entry. */
    Route route(AgentCheckpoint stored, LogDescriptor descriptor) {
        var rest = new ArrayList<LogEntryId>();
        var owners = new ArrayList<String>();
        List<LogBase> bases = descriptor.bases();
        int base = bases.size() - 1;
        String owner = agentId;
        LogEntryId entry = descriptor.last();
        if (base >= 0 && entry.equals(bases.get(base).last())) {
            owner = baseAgent(stored, bases.get(base--));
        }
        while (true) {
            int cached = known == null ? -1 : known.indexOf(entry);
            if (cached >= 0) {
                Collections.reverse(rest);
                Collections.reverse(owners);
                return new Route(cached + 1, rest, owners);
            }
            rest.add(entry);
            owners.add(owner);
            if (entry.from() == 0) {
                if (!entry.follows(ChainHasher.origin())) {
                    throw corrupt(stored, "the first log entry '" + entry + "' does not start at the origin");
                }
                Collections.reverse(rest);
                Collections.reverse(owners);
                return new Route(0, rest, owners);
            }
            if (rest.size() > descriptor.size()) {
                throw corrupt(stored, "the message log entries form a cycle");
            }
            if (base >= 0 && entry.from() <= bases.get(base).last().to()) {
                LogBase next = bases.get(base--);
                if (!next.last().precedes(entry)) {
                    throw corrupt(
                            stored,
                            "the message log entry '" + entry + "' does not follow '" + next.last()
                                    + "', the last of the base in the log of agent '" + next.agentId() + "'");
                }
                owner = baseAgent(stored, next);
                entry = next.last();
            } else {
                entry = predecessor(stored, owner, entry);
            }
        }
    }

    /** The agent of {@code base}, which must be another agent of this agent's namespace. */
    private String baseAgent(AgentCheckpoint stored, LogBase base) {
        String agent = base.agentId();
        if (agent.equals(agentId)
                || !Identifiers.isValid(agent)
                || !AgentNamespace.containing(agent).equals(AgentNamespace.containing(agentId))) {
            throw corrupt(
                    stored,
                    "the history names the log of agent '" + agent + "' as its base, which is not another agent of "
                            + "its own namespace");
        }
        return agent;
    }

    private LogEntryId predecessor(AgentCheckpoint stored, String owner, LogEntryId entry) {
        LogEntryId cached = known == null ? null : known.entryEndingAt(entry.from());
        if (cached != null && cached.precedes(entry)) {
            return cached;
        }
        List<LogEntryId> found = index(owner).predecessors(entry);
        if (found.isEmpty()) {
            throw corrupt(
                    stored,
                    "the message log entry holding the messages before " + entry.from() + " (the one '" + entry
                            + "' follows) is missing"
                            + (owner.equals(agentId) ? "" : " from the log of agent '" + owner + "'"));
        }
        return found.get(0); // two would need a 64-bit collision; the chain check below refuses a wrong one
    }

    private LogIndex index(String owner) {
        return indexes.computeIfAbsent(owner, o -> new LogIndex(store.listSegments(o)));
    }

    /** Fetches, in one call per log, every entry of {@code routes} not fetched yet. */
    void fetch(List<Route> routes) {
        Map<String, Set<String>> ids = new LinkedHashMap<>();
        for (Route route : routes) {
            for (int i = 0; i < route.rest().size(); i++) {
                ids.computeIfAbsent(route.owners().get(i), o -> new LinkedHashSet<>())
                        .add(route.rest().get(i).text());
            }
        }
        ids.forEach((owner, wanted) -> {
            Map<String, byte[]> have = fetched.computeIfAbsent(owner, o -> new HashMap<>());
            wanted.removeAll(have.keySet());
            if (!wanted.isEmpty()) {
                have.putAll(store.getSegments(owner, wanted));
            }
        });
    }

    /** The complete checkpoint and its path; {@link #fetch} must have been called with its route. */
    HistoryReader.Assembled assemble(AgentCheckpoint stored, LogDescriptor descriptor, Route route) {
        if (!stored.messageHistory().isEmpty()) {
            throw corrupt(stored, "a checkpoint whose history is in the message log holds messages itself");
        }
        var entries = new ArrayList<LogEntryId>(route.cached() + route.rest().size());
        var chains = new ArrayList<byte[]>(entries.size());
        var written = new ArrayList<Instant>(entries.size());
        var owners = new ArrayList<String>(entries.size());
        var history = new ArrayList<Message>(descriptor.size());
        if (route.cached() > 0) {
            entries.addAll(known.entries().subList(0, route.cached()));
            for (int i = 0; i < route.cached(); i++) {
                chains.add(known.chainAfter(i + 1));
                written.add(known.writtenAt(i));
                owners.add(known.owner(i));
            }
            for (Message message :
                    known.messages(0, entries.get(route.cached() - 1).to())) {
                history.add(Isolation.copy(message));
            }
        }
        byte[] chain = known == null ? ChainHasher.origin() : known.chainAfter(route.cached());
        int start = history.size();
        var text = new LogText(() -> start == 0 ? new byte[0] : known.dictionaryAt(start));
        for (int i = 0; i < route.rest().size(); i++) {
            LogEntryId entry = route.rest().get(i);
            String owner = route.owners().get(i);
            if (!entry.follows(chain) || entry.from() != history.size()) {
                throw corrupt(stored, "the message log entry '" + entry + "' does not follow the one before it");
            }
            LogEntryCodec.Read read = read(stored, entry, owner, text);
            List<Message> messages = Isolation.copy(read.messages());
            text.add(read.text());
            chain = hasher.next(chain, messages);
            if (!entry.endsWith(chain)) {
                throw corrupt(stored, entry, "the message log entry does not hold the messages its id names", null);
            }
            entries.add(entry);
            chains.add(chain);
            LogIndex index = indexes.get(owner);
            written.add(index == null ? null : index.writtenAt(entry));
            owners.add(owner.equals(agentId) ? null : owner);
            history.addAll(messages);
        }
        if (history.size() != descriptor.size()) {
            throw corrupt(
                    stored,
                    "the descriptor counts " + descriptor.size() + " messages but the log holds " + history.size());
        }
        return new HistoryReader.Assembled(
                HistoryReader.complete(stored, history, descriptorKey),
                0,
                null,
                new LogPath(entries, chains, written, owners));
    }

    /**
     * The decoded entry, decoded once per read against the dictionary of the history before it; its messages are the
     * first objects, which the caller copies.
     */
    private LogEntryCodec.Read read(AgentCheckpoint stored, LogEntryId entry, String owner, LogText text) {
        String id = entry.text();
        LogEntryCodec.Read read = decoded.get(id);
        if (read != null) {
            return read; // an entry id names the history before it, so its dictionary too
        }
        byte[] bytes = fetched.getOrDefault(owner, Map.of()).get(id);
        if (bytes == null) {
            throw corrupt(
                    stored,
                    entry,
                    "the message log entry holding messages " + entry.from() + " to " + (entry.to() - 1)
                            + " of the history is missing",
                    null);
        }
        try {
            read = codec.decodeEntry(owner, id, bytes, where(entry), text.dictionary());
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
