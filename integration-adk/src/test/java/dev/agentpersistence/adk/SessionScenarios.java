package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.State;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The session scenarios, with the same assertions for ADK's {@code InMemorySessionService} (the reference) and for
 * {@link AgentPersistenceSessionService} on each provider. Every test uses an app name of its own, so stores shared
 * between tests (PostgreSQL, Redis) need no cleaning.
 */
abstract class SessionScenarios {
    protected final String app = "app-" + UUID.randomUUID();

    /** The service under test; the same instance during one test. */
    protected abstract BaseSessionService service();

    protected Session get(String user, String id) {
        return service().getSession(app, user, id, Optional.empty()).blockingGet();
    }

    protected Session create(String user, Map<String, Object> state, String id) {
        return service().createSession(app, user, state, id).blockingGet();
    }

    protected void append(Session session, Event event) {
        service().appendEvent(session, event).blockingGet();
    }

    @Test
    void unknownSessionIsAbsentEverywhere() {
        assertThat(service().getSession(app, "user", "nope", Optional.empty()).blockingGet())
                .isNull();
        assertThat(service().listSessions(app, "user").blockingGet().sessions()).isEmpty();
        assertThat(service().listEvents(app, "user", "nope").blockingGet().events())
                .isEmpty();
    }

    @Test
    void createWithoutIdGeneratesOne() {
        Session session = service().createSession(app, "user").blockingGet();
        assertThat(session.id()).isNotBlank();
        assertThat(session.appName()).isEqualTo(app);
        assertThat(session.userId()).isEqualTo("user");
        assertThat(session.state()).isEmpty();
        assertThat(session.events()).isEmpty();
        assertThat(get("user", session.id()).id()).isEqualTo(session.id());
    }

    @Test
    void blankIdIsGeneratedAndGivenIdIsTrimmed() {
        assertThat(create("user", null, "   ").id()).isNotBlank();
        assertThat(create("user", null, " s-1 ").id()).isEqualTo("s-1");
        assertThat(get("user", "s-1")).isNotNull();
    }

    @Test
    void createWithStateReadsBackTheState() {
        Map<String, Object> state = new HashMap<>();
        state.put("topic", "tea");
        state.put("count", 3);
        Session created = create("user", state, "s-1");
        assertThat(created.state()).containsEntry("topic", "tea").containsEntry("count", 3);
        Session read = get("user", "s-1");
        assertThat(read.state()).containsEntry("topic", "tea").containsEntry("count", 3);
        assertThat(read.events()).isEmpty();
    }

    @Test
    void appendedEventsReadBackInOrderWithTheirContent() {
        Session session = create("user", null, "s-1");
        Event first = AdkEvents.text("user", "hello there", 1_000);
        Event second = AdkEvents.text("agent", "hi, how can I help?", 2_000);
        append(session, first);
        append(session, second);
        List<Event> events = get("user", "s-1").events();
        assertThat(events).extracting(Event::toJson).containsExactly(first.toJson(), second.toJson());
        assertThat(service().listEvents(app, "user", "s-1").blockingGet().events())
                .extracting(Event::id)
                .containsExactly(first.id(), second.id());
        assertThat(session.events()).extracting(Event::id).containsExactly(first.id(), second.id());
    }

    @Test
    void stateDeltaFollowsThePrefixRules() {
        Session session = create("user", new HashMap<>(), "s-1");
        Map<String, Object> delta = new LinkedHashMap<>();
        delta.put("sessionKey", "sessionValue");
        delta.put("app:appKey", "appValue");
        delta.put("user:userKey", "userValue");
        delta.put("temp:tempKey", "tempValue");
        append(session, AdkEvents.withDelta(delta, 1_000));

        assertThat(session.state())
                .containsEntry("sessionKey", "sessionValue")
                .containsEntry("app:appKey", "appValue")
                .containsEntry("user:userKey", "userValue")
                .containsEntry("temp:tempKey", "tempValue");
        assertThat(get("user", "s-1").state())
                .containsEntry("sessionKey", "sessionValue")
                .containsEntry("app:appKey", "appValue")
                .containsEntry("user:userKey", "userValue");
    }

    @Test
    void removedKeysLeaveEveryScope() {
        Session session = create("user", new HashMap<>(), "s-1");
        append(
                session,
                AdkEvents.withDelta(
                        Map.of("sessionKey", "v", "app:appKey", "v", "user:userKey", "v", "temp:tempKey", "v"), 1_000));
        append(
                session,
                AdkEvents.withDelta(
                        Map.of(
                                "sessionKey",
                                State.REMOVED,
                                "app:appKey",
                                State.REMOVED,
                                "user:userKey",
                                State.REMOVED,
                                "temp:tempKey",
                                State.REMOVED),
                        2_000));
        assertThat(session.state()).doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
        assertThat(get("user", "s-1").state())
                .doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
    }

    @Test
    void appStateIsSharedByTheAppAndUserStateByTheUser() {
        Session alice1 = create("alice", null, "a-1");
        Session alice2 = create("alice", null, "a-2");
        create("bob", null, "b-1");
        append(alice1, AdkEvents.withDelta(Map.of("app:motd", "welcome", "user:lang", "fr", "mine", "x"), 1_000));

        assertThat(get("alice", "a-2").state())
                .containsEntry("app:motd", "welcome")
                .containsEntry("user:lang", "fr")
                .doesNotContainKey("mine");
        assertThat(get("bob", "b-1").state())
                .containsEntry("app:motd", "welcome")
                .doesNotContainKeys("user:lang", "mine");
        assertThat(service()
                        .createSession(app, "bob", null, "b-2")
                        .blockingGet()
                        .state())
                .containsEntry("app:motd", "welcome")
                .doesNotContainKey("user:lang");
        assertThat(service()
                        .getSession("other-" + app, "alice", "a-1", Optional.empty())
                        .blockingGet())
                .isNull();
        assertThat(alice2.state()).doesNotContainKey("app:motd");
    }

    @Test
    void sequentialAgentsShareTempStateThroughTheSessionObject() {
        Session session = create("user", new HashMap<>(), "s-1");
        append(session, AdkEvents.withDelta(Map.of("temp:agent1_output", "data"), 1_000));
        assertThat(session.state()).containsEntry("temp:agent1_output", "data");
        append(
                session,
                AdkEvents.withDelta(
                        Map.of("temp:agent2_output", "processed", "temp:agent1_output", State.REMOVED), 2_000));
        assertThat(session.state())
                .doesNotContainKey("temp:agent1_output")
                .containsEntry("temp:agent2_output", "processed");
    }

    @Test
    void lastUpdateTimeIsTheNewestEventsTimestamp() {
        Session session = create("user", new HashMap<>(), "s-1");
        append(session, AdkEvents.text("user", "hi", 5_500));
        assertThat(session.lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
        assertThat(get("user", "s-1").lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
    }

    @Test
    void numRecentEventsKeepsTheNewest() {
        Session session = create("user", null, "s-1");
        for (int i = 1; i <= 5; i++) {
            append(session, AdkEvents.text("user", "message " + i, i * 1_000L));
        }
        assertThat(events("s-1", GetSessionConfig.builder().numRecentEvents(2).build()))
                .containsExactly(4_000L, 5_000L);
        assertThat(events("s-1", GetSessionConfig.builder().numRecentEvents(9).build()))
                .hasSize(5);
        assertThat(events("s-1", GetSessionConfig.builder().numRecentEvents(0).build()))
                .isEmpty();
    }

    @Test
    void afterTimestampKeepsEventsFromItOn() {
        Session session = create("user", null, "s-1");
        for (int i = 1; i <= 4; i++) {
            append(session, AdkEvents.text("user", "message " + i, i * 1_000L));
        }
        assertThat(events(
                        "s-1",
                        GetSessionConfig.builder()
                                .afterTimestamp(Instant.ofEpochMilli(2_000))
                                .build()))
                .containsExactly(2_000L, 3_000L, 4_000L);
        assertThat(events(
                        "s-1",
                        GetSessionConfig.builder()
                                .afterTimestamp(Instant.ofEpochMilli(2_500))
                                .build()))
                .containsExactly(3_000L, 4_000L);
    }

    @Test
    void numRecentEventsTakesPrecedenceOverAfterTimestamp() {
        Session session = create("user", null, "s-1");
        for (int i = 1; i <= 4; i++) {
            append(session, AdkEvents.text("user", "message " + i, i * 1_000L));
        }
        assertThat(events(
                        "s-1",
                        GetSessionConfig.builder()
                                .numRecentEvents(3)
                                .afterTimestamp(Instant.ofEpochMilli(4_000))
                                .build()))
                .containsExactly(2_000L, 3_000L, 4_000L);
    }

    @Test
    void listSessionsHasNoEventsButTheMergedState() {
        Session session = create("user", new HashMap<>(), "s-1");
        create("user", null, "s-2");
        create("other-user", null, "s-3");
        append(
                session,
                AdkEvents.withDelta(
                        Map.of("sessionKey", "sessionValue", "app:appKey", "appValue", "user:userKey", "userValue"),
                        1_000));
        var sessions = service().listSessions(app, "user").blockingGet().sessions();
        assertThat(sessions).extracting(Session::id).containsExactlyInAnyOrder("s-1", "s-2");
        Session listed =
                sessions.stream().filter(s -> s.id().equals("s-1")).findFirst().orElseThrow();
        assertThat(listed.events()).isEmpty();
        assertThat(listed.state())
                .containsEntry("sessionKey", "sessionValue")
                .containsEntry("app:appKey", "appValue")
                .containsEntry("user:userKey", "userValue");
        assertThat(listed.lastUpdateTime()).isEqualTo(Instant.ofEpochMilli(1_000));
    }

    @Test
    void deleteRemovesTheSessionAndKeepsSharedState() {
        Session session = create("user", null, "s-1");
        create("user", null, "s-2");
        append(session, AdkEvents.withDelta(Map.of("app:k", "a", "user:k", "u", "k", "s"), 1_000));
        service().deleteSession(app, "user", "s-1").blockingAwait();
        service().deleteSession(app, "user", "never-created").blockingAwait();

        assertThat(get("user", "s-1")).isNull();
        assertThat(service().listEvents(app, "user", "s-1").blockingGet().events())
                .isEmpty();
        assertThat(service().listSessions(app, "user").blockingGet().sessionIds())
                .containsExactly("s-2");
        assertThat(get("user", "s-2").state())
                .containsEntry("app:k", "a")
                .containsEntry("user:k", "u")
                .doesNotContainKey("k");
    }

    @Test
    void stateValuesOfJsonTypesReadBack() {
        Session session = create("user", null, "s-1");
        Map<String, Object> delta = new LinkedHashMap<>();
        delta.put("text", "tea");
        delta.put("number", 42);
        delta.put("decimal", 2.5);
        delta.put("flag", true);
        delta.put("list", List.of("a", "b"));
        delta.put("map", Map.of("nested", "yes"));
        append(session, AdkEvents.withDelta(delta, 1_000));
        assertThat(get("user", "s-1").state()).containsAllEntriesOf(delta);
    }

    @Test
    void partialEventsAreNotAdded() {
        Session session = create("user", null, "s-1");
        Event partial = Event.builder()
                .id(Event.generateEventId())
                .author("agent")
                .partial(true)
                .timestamp(1_000)
                .build();
        append(session, partial);
        assertThat(get("user", "s-1").events()).isEmpty();
        assertThat(session.events()).isEmpty();
    }

    private List<Long> events(String id, GetSessionConfig config) {
        return service().getSession(app, "user", id, Optional.of(config)).blockingGet().events().stream()
                .map(Event::timestamp)
                .toList();
    }
}
