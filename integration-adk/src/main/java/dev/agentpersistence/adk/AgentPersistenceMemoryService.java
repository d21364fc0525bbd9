package dev.agentpersistence.adk;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.genai.types.Part;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.adk.internal.AdkIds;
import dev.agentpersistence.adk.internal.AdkRecords;
import dev.agentpersistence.adk.internal.NextVersion;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ADK {@link BaseMemoryService} over any agent-persistence provider, answering as ADK's
 * {@code InMemoryMemoryService} does.
 *
 * <p>{@link #addSessionToMemory} stores the session's events that have content parts as a new checkpoint of the agent
 * {@code @adk/memory/<app>/<user>/<session>} (in the namespace {@code adk}; {@link Builder#withoutNamespace()} keeps a
 * store written before namespaces, {@code adk/memory/...}, in use; adding a session again replaces what memory holds of
 * it; earlier checkpoints stay as history). {@link #searchMemory} reads the newest checkpoint of each of the user's
 * memorised sessions, in agent id order, and returns the events sharing a word with the query: the query is lower-cased
 * and split at whitespace, an event's words are the runs of ASCII letters of its text parts, lower-cased. At most
 * {@link #maxResults()} entries are returned (a scan bounded by that limit: it stops at the limit). A memory entry's
 * timestamp is written as {@code InMemoryMemoryService} writes it ({@code Instant.ofEpochSecond} of the event's
 * timestamp).
 *
 * <p>Every method does its work when called and reports failures through the returned reactive type. Thread-safe; it
 * does not own the storage.
 */
public final class AgentPersistenceMemoryService implements BaseMemoryService {
    /** How many entries a search returns at most, unless configured otherwise. */
    public static final int DEFAULT_MAX_RESULTS = 1000;

    private static final Pattern WORD = Pattern.compile("[A-Za-z]+");

    private final PersistenceStorageProvider<?> storage;
    private final Clock clock;
    private final int maxResults;
    private final AdkIds ids;

    private AgentPersistenceMemoryService(
            PersistenceStorageProvider<?> storage, Clock clock, int maxResults, AdkIds ids) {
        this.storage = storage;
        this.clock = clock;
        this.maxResults = maxResults;
        this.ids = ids;
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(Objects.requireNonNull(storage, "storage"));
    }

    /** A service over {@code storage} returning at most {@value #DEFAULT_MAX_RESULTS} entries per search. */
    public static AgentPersistenceMemoryService of(PersistenceStorageProvider<?> storage) {
        return of(storage, Clock.systemUTC(), DEFAULT_MAX_RESULTS);
    }

    /**
     * A service over {@code storage} stamping checkpoints with {@code clock} and returning at most {@code maxResults}.
     */
    public static AgentPersistenceMemoryService of(PersistenceStorageProvider<?> storage, Clock clock, int maxResults) {
        return builder(storage).clock(clock).maxResults(maxResults).build();
    }

    /** The most entries a search returns. */
    public int maxResults() {
        return maxResults;
    }

    /** Stores the session's events with content parts, replacing what memory held of the session. */
    @Override
    public Completable addSessionToMemory(Session session) {
        Objects.requireNonNull(session, "session");
        try {
            String agentId = ids.memory(session.appName(), session.userId(), session.id());
            var records = new ArrayList<Message>();
            for (Event event : session.events()) {
                boolean hasParts = event.content()
                        .flatMap(content -> content.parts())
                        .filter(parts -> !parts.isEmpty())
                        .isPresent();
                if (hasParts) {
                    records.add(AdkRecords.event(event));
                }
            }
            NextVersion.save(
                    storage,
                    agentId,
                    clock,
                    (builder, head) -> builder.nodeId("memory").messageHistory(records));
            return Completable.complete();
        } catch (RuntimeException e) {
            return Completable.error(e);
        }
    }

    /**
     * The memorised events of the user's sessions that share a word with {@code query}; see the class documentation.
     */
    @Override
    public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
        Objects.requireNonNull(appName, "appName");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(query, "query");
        try {
            Set<String> queryWords = Set.of(query.toLowerCase(Locale.ROOT).split("\\s+"));
            String prefix = ids.memoriesOf(appName, userId);
            List<MemoryEntry> found = new ArrayList<>();
            for (String agentId : storage.listAgents()) {
                if (!agentId.startsWith(prefix)) {
                    continue;
                }
                var latest = storage.getLatestCheckpoint(agentId);
                if (latest.isEmpty() || latest.get().isTombstone()) {
                    continue;
                }
                for (Message record : latest.get().messageHistory()) {
                    Event event = AdkRecords.event(record, agentId);
                    if (!Collections.disjoint(queryWords, words(event))) {
                        found.add(MemoryEntry.builder()
                                .content(event.content().orElseThrow())
                                .author(event.author())
                                .timestamp(
                                        Instant.ofEpochSecond(event.timestamp()).toString())
                                .build());
                        if (found.size() == maxResults) {
                            return Single.just(response(found));
                        }
                    }
                }
            }
            return Single.just(response(found));
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    @Override
    public String toString() {
        return "AgentPersistenceMemoryService[" + storage + ", " + ids + ", maxResults=" + maxResults + "]";
    }

    /** Builds {@link AgentPersistenceMemoryService}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> storage;
        private Clock clock = Clock.systemUTC();
        private int maxResults = DEFAULT_MAX_RESULTS;
        private boolean namespaced = true;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.storage = storage;
        }

        /** The clock checkpoints are stamped with; default UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * How many entries a search returns at most; default
         * {@value AgentPersistenceMemoryService#DEFAULT_MAX_RESULTS}.
         */
        public Builder maxResults(int maxResults) {
            if (maxResults < 1) {
                throw new IllegalArgumentException("maxResults must be >= 1 but was " + maxResults);
            }
            this.maxResults = maxResults;
            return this;
        }

        /**
         * Stores memorised sessions as versions before namespaces did ({@code adk/memory/...}), to keep reading and
         * writing a store they wrote.
         */
        public Builder withoutNamespace() {
            this.namespaced = false;
            return this;
        }

        /** The service. */
        public AgentPersistenceMemoryService build() {
            return new AgentPersistenceMemoryService(storage, clock, maxResults, AdkIds.of(namespaced));
        }
    }

    private static SearchMemoryResponse response(List<MemoryEntry> entries) {
        return SearchMemoryResponse.builder().setMemories(entries).build();
    }

    private static Set<String> words(Event event) {
        var words = new HashSet<String>();
        for (Part part : event.content().flatMap(content -> content.parts()).orElse(List.of())) {
            Matcher matcher = WORD.matcher(part.text().orElse(""));
            while (matcher.find()) {
                words.add(matcher.group().toLowerCase(Locale.ROOT));
            }
        }
        return words;
    }
}
