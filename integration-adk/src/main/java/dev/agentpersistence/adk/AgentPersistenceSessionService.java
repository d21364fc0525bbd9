package dev.agentpersistence.adk;

import com.google.adk.events.Event;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListEventsResponse;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionNotFoundException;
import com.google.adk.sessions.State;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.adk.internal.AdkIds;
import dev.agentpersistence.adk.internal.AdkRecords;
import dev.agentpersistence.adk.internal.SharedState;
import dev.agentpersistence.adk.internal.StoredSession;
import dev.agentpersistence.memory.ConversationStore;
import io.micrometer.observation.ObservationRegistry;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * An ADK {@link BaseSessionService} over any agent-persistence provider: sessions, their events and the shared
 * {@code app:}/{@code user:} state survive the process and are shared by every service over the same storage.
 *
 * <p><b>Stored form.</b> A session is a conversation of a {@link ConversationStore} under the agent id
 * {@code @adk/session/<app>/<user>/<session>}: its first message is the creation record (creation time and initial
 * state), each appended event one more message holding the event's JSON. {@link #appendEvent} appends, it never
 * rewrites the session. App state lives under {@code @adk/app-state/<app>} and user state under
 * {@code @adk/user-state/<app>/<user>}, each as a list of deltas. Every id is in the namespace {@code adk}, so no id
 * given to the facade or another kind of agent names an ADK agent; ADK ids are escaped so that any id is stored and no
 * id of one kind names an agent of another. A store written before namespaces ({@code adk/session/...}) stays readable
 * and writable with {@link Builder#withoutNamespace()}.
 *
 * <p><b>State.</b> Deltas are applied with the prefix rules of ADK's {@code InMemorySessionService}: {@code app:} keys
 * go to the app's shared state, {@code user:} keys to the user's, other keys to the session; a read merges the current
 * app and user state into the session's. {@code temp:} keys are applied to the {@link Session} object handed to
 * {@link #appendEvent} (so later agents of the same invocation see them) but are never stored: they are absent from a
 * session read back.
 *
 * <p><b>Concurrency.</b> Each append is one atomic save. An append racing another (another thread, service or JVM) is
 * applied again to the stored head, so no event is lost and each writer's events keep their order; when other writers
 * win every attempt the append fails with {@link dev.agentpersistence.memory.ConversationConflictException}. A
 * {@code Session} object that is behind the store is therefore merged, not rejected: the event goes after the events
 * already stored.
 *
 * <p><b>Cost of an append.</b> Whatever the session's length: one read of the session's head, which also tells whether
 * the session is still stored, and one save holding the new event (with incremental history the provider writes only
 * the messages after its last complete block); one more save for each of the app's and the user's state when the delta
 * has such keys; one read of the head of each of these two states, to merge them into the {@code Session} object as
 * {@code InMemorySessionService} does (the state folded from the head last read is remembered, so only newer deltas are
 * decoded). An append that lost a race reads the head again and saves again.
 *
 * <p>Every method does its work when called, as {@code InMemorySessionService} does, and reports failures through the
 * returned {@code Single}/{@code Maybe}/{@code Completable}. Thread-safe; it does not own the storage.
 */
public final class AgentPersistenceSessionService implements BaseSessionService {
    private final PersistenceStorageProvider<?> storage;
    private final ConversationStore conversations;
    private final SharedState shared;
    private final Clock clock;
    private final Supplier<String> sessionIds;
    private final AdkIds ids;

    private AgentPersistenceSessionService(Builder builder) {
        this.storage = builder.storage;
        this.clock = builder.clock;
        this.sessionIds = builder.sessionIds;
        this.ids = AdkIds.of(builder.namespaced);
        this.conversations = ids.configure(ConversationStore.builder(builder.storage)
                        .clock(builder.clock)
                        .maxConflictRetries(builder.maxConflictRetries)
                        .observationRegistry(builder.observations))
                .build();
        this.shared = new SharedState(conversations);
    }

    /** A service over {@code storage} with the default settings. */
    public static AgentPersistenceSessionService of(PersistenceStorageProvider<?> storage) {
        return builder(storage).build();
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(Objects.requireNonNull(storage, "storage"));
    }

    /**
     * Creates a session; a blank or {@code null} id gets a random UUID.
     *
     * <p>Fails with {@link AdkSessionExistsException} when the session is already stored (the stored one is kept).
     */
    @Override
    public Single<Session> createSession(
            String appName, String userId, ConcurrentMap<String, Object> state, String sessionId) {
        return createSession(appName, userId, (Map<String, Object>) state, sessionId);
    }

    /** See {@link #createSession(String, String, ConcurrentMap, String)}. */
    @Override
    public Single<Session> createSession(String appName, String userId, Map<String, Object> state, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        String id = Optional.ofNullable(sessionId)
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .orElseGet(sessionIds);
        try {
            String agentId = ids.session(appName, userId, id);
            Instant now = clock.instant();
            var initial = state == null ? new ConcurrentHashMap<String, Object>() : new ConcurrentHashMap<>(state);
            if (storage.getLatestCheckpoint(agentId).isPresent()) {
                throw new AdkSessionExistsException(appName, userId, id);
            }
            var first = AgentCheckpoint.builder()
                    .checkpointId(UUID.randomUUID().toString())
                    .agentId(agentId)
                    .version(0)
                    .createdAt(now)
                    .nodeId(ConversationStore.NODE_ID)
                    .messageHistory(List.of(AdkRecords.session(now, initial)))
                    .build();
            try {
                storage.saveCheckpointAfter(agentId, Optional.empty(), first);
            } catch (CheckpointConflictException e) {
                throw new AdkSessionExistsException(appName, userId, id);
            }
            Session session = Session.builder(id)
                    .appName(appName)
                    .userId(userId)
                    .state(initial)
                    .lastUpdateTime(now)
                    .build();
            shared.mergeInto(session.state(), appName, userId);
            return Single.just(session);
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /**
     * The stored session with the app's and user's shared state merged in; empty when none is stored. With a
     * {@link GetSessionConfig}, {@code numRecentEvents} keeps the newest events, and otherwise {@code afterTimestamp}
     * drops the events before it, as {@code InMemorySessionService} does.
     */
    @Override
    public Maybe<Session> getSession(
            String appName, String userId, String sessionId, Optional<GetSessionConfig> configOpt) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        Objects.requireNonNull(configOpt, "configOpt cannot be null");
        try {
            var stored = load(appName, userId, sessionId);
            if (stored.isEmpty()) {
                return Maybe.empty();
            }
            var events = new ArrayList<>(stored.get().events());
            var config = configOpt.orElseGet(() -> GetSessionConfig.builder().build());
            config.numRecentEvents().ifPresent(num -> {
                if (!events.isEmpty() && num < events.size()) {
                    events.subList(0, events.size() - num).clear();
                }
            });
            if (config.numRecentEvents().isEmpty() && config.afterTimestamp().isPresent()) {
                Instant threshold = config.afterTimestamp().get();
                events.removeIf(event -> Instant.ofEpochMilli(event.timestamp()).isBefore(threshold));
            }
            return Maybe.just(session(appName, userId, sessionId, stored.get(), events));
        } catch (RuntimeException e) {
            return Maybe.error(e);
        }
    }

    /** The user's sessions in the app, without events, with their state merged as {@link #getSession} does. */
    @Override
    public Single<ListSessionsResponse> listSessions(String appName, String userId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        try {
            String prefix = ids.sessionsOf(appName, userId);
            var sessions = new ArrayList<Session>();
            for (String agentId : storage.listAgents()) {
                if (!agentId.startsWith(prefix)) {
                    continue;
                }
                String sessionId = AdkIds.unescape(agentId.substring(prefix.length()));
                load(appName, userId, sessionId)
                        .ifPresent(
                                stored -> sessions.add(session(appName, userId, sessionId, stored, new ArrayList<>())));
            }
            return Single.just(ListSessionsResponse.builder().sessions(sessions).build());
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /**
     * Deletes the session and its events; the shared app and user state stay. Deleting an unknown session is a no-op.
     */
    @Override
    public Completable deleteSession(String appName, String userId, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        try {
            conversations.delete(AdkIds.sessionConversation(appName, userId, sessionId));
            return Completable.complete();
        } catch (RuntimeException e) {
            return Completable.error(e);
        }
    }

    /** The session's stored events, oldest first (no paging); empty for an unknown session. */
    @Override
    public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        try {
            var events =
                    load(appName, userId, sessionId).map(StoredSession::events).orElse(List.of());
            return Single.just(ListEventsResponse.builder().events(events).build());
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /**
     * Stores the event at the end of the session and applies its state delta; partial events are returned untouched, as
     * {@link BaseSessionService#appendEvent} does. The {@code session} object is updated as
     * {@code InMemorySessionService} updates it: its state gets the delta ({@code temp:} keys included) and the current
     * shared state, its events the event, its last update time the event's timestamp.
     *
     * <p>Fails with {@link SessionNotFoundException} when the session is not stored (never created, or deleted).
     */
    @Override
    public Single<Event> appendEvent(Session session, Event event) {
        Objects.requireNonNull(session, "session cannot be null");
        Objects.requireNonNull(event, "event cannot be null");
        Objects.requireNonNull(session.appName(), "session.appName cannot be null");
        Objects.requireNonNull(session.userId(), "session.userId cannot be null");
        Objects.requireNonNull(session.id(), "session.id cannot be null");
        if (event.partial().orElse(false)) {
            return Single.just(event);
        }
        String appName = session.appName();
        String userId = session.userId();
        try {
            String conversationId = AdkIds.sessionConversation(appName, userId, session.id());
            if (conversations
                    .appendIfStored(conversationId, List.of(AdkRecords.event(event)))
                    .isEmpty()) {
                throw new SessionNotFoundException("ADK session '" + session.id() + "' of user '" + userId
                        + "' in app '" + appName + "' is not stored");
            }
            Map<String, Object> delta =
                    event.actions() == null ? null : event.actions().stateDelta();
            shared.apply(appName, userId, delta);
            if (delta != null) {
                delta.forEach((key, value) -> {
                    if (key.startsWith(State.TEMP_PREFIX)) {
                        if (value == State.REMOVED) {
                            session.state().remove(key);
                        } else {
                            session.state().put(key, value);
                        }
                    }
                });
            }
            BaseSessionService.super.appendEvent(session, event);
            session.lastUpdateTime(Instant.ofEpochMilli(event.timestamp()));
            shared.mergeInto(session.state(), appName, userId);
            return Single.just(event);
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /** The conversations sessions and shared state are stored in. */
    public ConversationStore conversations() {
        return conversations;
    }

    @Override
    public String toString() {
        return "AgentPersistenceSessionService[" + storage + ", " + ids + "]";
    }

    private Optional<StoredSession> load(String appName, String userId, String sessionId) {
        String conversationId = AdkIds.sessionConversation(appName, userId, sessionId);
        String agentId = conversations.agentId(conversationId);
        var conversation = conversations.load(conversationId);
        return conversation.checkpoint().isEmpty()
                ? Optional.empty()
                : Optional.of(StoredSession.of(conversation, agentId));
    }

    private Session session(String appName, String userId, String sessionId, StoredSession stored, List<Event> events) {
        Session session = Session.builder(sessionId)
                .appName(appName)
                .userId(userId)
                .state(new ConcurrentHashMap<>(stored.state()))
                .events(events)
                .lastUpdateTime(stored.lastUpdateTime())
                .build();
        shared.mergeInto(session.state(), appName, userId);
        return session;
    }

    /** Builds {@link AgentPersistenceSessionService}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> storage;
        private Clock clock = Clock.systemUTC();
        private Supplier<String> sessionIds = () -> UUID.randomUUID().toString();
        private int maxConflictRetries = ConversationStore.DEFAULT_MAX_CONFLICT_RETRIES;
        private boolean namespaced = true;
        private ObservationRegistry observations = ObservationRegistry.NOOP;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.storage = storage;
        }

        /**
         * Stores sessions and shared state as versions before namespaces did ({@code adk/session/...},
         * {@code adk/app-state/...}, {@code adk/user-state/...}), to keep reading and writing a store they wrote. Such
         * ids can be written by any plain id given to the facade.
         */
        public Builder withoutNamespace() {
            this.namespaced = false;
            return this;
        }

        /** The clock creation times and checkpoints are stamped with; default UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Where the session operations are observed (default none): one chat-memory observation per load, append and
         * deletion of a session ({@code ConversationStore.Builder#observationRegistry}), around the storage's own.
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            return this;
        }

        /** Where the ids of sessions created without one come from; default random UUIDs. */
        public Builder sessionIds(Supplier<String> ids) {
            this.sessionIds = Objects.requireNonNull(ids, "ids");
            return this;
        }

        /**
         * How often an append that lost a race is applied again to the new head; default
         * {@value ConversationStore#DEFAULT_MAX_CONFLICT_RETRIES}.
         */
        public Builder maxConflictRetries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("maxConflictRetries must be >= 0 but was " + retries);
            }
            this.maxConflictRetries = retries;
            return this;
        }

        /** The service. */
        public AgentPersistenceSessionService build() {
            return new AgentPersistenceSessionService(this);
        }
    }
}
