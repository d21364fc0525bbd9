package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionNotFoundException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shared scenarios plus what only a stored session service promises, for {@link AgentPersistenceSessionService} on
 * every provider of {@link AdkStore}: survival across a reopened provider, {@code temp:} never stored, escaping of ids,
 * refusals, and concurrent appends from two services.
 */
@ParameterizedClass
@EnumSource(AdkStore.class)
class StoredSessionServiceTest extends SessionScenarios {
    private PersistenceStorageProvider<CheckpointFilter> provider;
    private AgentPersistenceSessionService service;

    @Parameter
    AdkStore store;

    @TempDir
    Path dir;

    private final String prefix = "adk-test-" + UUID.randomUUID() + ":";

    /** Opens a provider on the test's store; each call opens a new one on the same data (the heap: a new heap). */
    private PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return store.open(dir, prefix);
    }

    /** Whether a second {@link #openProvider()} sees the first one's data. */
    private boolean reopenable() {
        return store.reopenable();
    }

    @BeforeEach
    void open() {
        provider = openProvider();
        service = AgentPersistenceSessionService.of(provider);
    }

    @AfterEach
    void close() throws Exception {
        provider.close();
    }

    @Override
    protected BaseSessionService service() {
        return service;
    }

    @Test
    void sessionSurvivesAReopenedProvider() throws Exception {
        Session session = create("user", new HashMap<>(Map.of("topic", "tea")), "s-1");
        append(session, AdkEvents.text("user", "first", 1_000));
        append(session, AdkEvents.withDelta(Map.of("app:a", 1, "user:u", 2, "k", 3), 2_000));
        String before = get("user", "s-1").toJson();
        if (reopenable()) {
            provider.close();
            provider = openProvider();
        }
        service = AgentPersistenceSessionService.of(provider);
        Session reread = get("user", "s-1");
        assertThat(reread.toJson()).isEqualTo(before);
        append(reread, AdkEvents.text("agent", "second", 3_000));
        assertThat(get("user", "s-1").events()).hasSize(3);
    }

    @Test
    void tempKeysAreNeverStored() {
        Session session = create("user", new HashMap<>(Map.of("temp:initial", "x", "kept", "y")), "s-1");
        append(session, AdkEvents.withDelta(Map.of("temp:scratch", "value", "kept", "z"), 1_000));
        assertThat(session.state()).containsEntry("temp:scratch", "value");

        Session read = get("user", "s-1");
        assertThat(read.state()).containsEntry("kept", "z").doesNotContainKeys("temp:scratch", "temp:initial");
        Event stored =
                service.listEvents(app, "user", "s-1").blockingGet().events().get(0);
        assertThat(stored.actions().stateDelta()).containsOnlyKeys("kept");
    }

    @Test
    void existingSessionIdIsRefused() {
        create("user", new HashMap<>(Map.of("k", "first")), "s-1");
        assertThatThrownBy(() -> create("user", null, "s-1"))
                .isInstanceOf(AdkSessionExistsException.class)
                .hasMessageContaining("s-1");
        assertThat(get("user", "s-1").state()).containsEntry("k", "first");
    }

    @Test
    void appendToAnUnknownSessionIsRefused() {
        Session ghost = Session.builder("ghost").appName(app).userId("user").build();
        assertThatThrownBy(() -> append(ghost, AdkEvents.text("user", "hi", 1_000)))
                .isInstanceOf(SessionNotFoundException.class);
        assertThat(get("user", "ghost")).isNull();
    }

    @Test
    void appendToASessionAnotherServiceDeletedIsRefused() {
        Session session = create("user", null, "s-1");
        append(session, AdkEvents.text("user", "before", 1_000));
        AgentPersistenceSessionService.of(provider)
                .deleteSession(app, "user", "s-1")
                .blockingAwait();
        assertThatThrownBy(() -> append(session, AdkEvents.text("user", "after", 2_000)))
                .isInstanceOf(SessionNotFoundException.class);
        assertThat(get("user", "s-1")).isNull();
    }

    @Test
    @SuppressWarnings("unchecked")
    void sharedStateAnotherServiceChangedIsReadAndNoReadSharesItsValues() {
        Session mine = create("user", null, "s-1");
        append(mine, AdkEvents.withDelta(Map.of("app:nested", Map.of("n", 1), "user:u", "a"), 1_000));
        assertThat(get("user", "s-1").state()).containsEntry("app:nested", Map.of("n", 1));

        var peer = AgentPersistenceSessionService.of(provider);
        Session theirs = peer.createSession(app, "user", null, "s-2").blockingGet();
        peer.appendEvent(theirs, AdkEvents.withDelta(Map.of("app:nested", Map.of("n", 2), "user:u", "b"), 2_000))
                .blockingGet();
        Session read = get("user", "s-1");
        assertThat(read.state()).containsEntry("app:nested", Map.of("n", 2)).containsEntry("user:u", "b");

        ((Map<String, Object>) read.state().get("app:nested")).put("n", 99);
        append(mine, AdkEvents.text("user", "later", 3_000));
        assertThat(mine.state()).containsEntry("app:nested", Map.of("n", 2));
        assertThat(get("user", "s-1").state()).containsEntry("app:nested", Map.of("n", 2));
    }

    @Test
    void anyIdIsStoredAndIdsNeverCollide() {
        String[] ids = {"a/b", "../x", "100%", "quote'\"", "tab\there", "日本語", "emoji😀", "%2F"};
        for (String id : ids) {
            append(create("u/v", null, id), AdkEvents.text("user", id, 1_000));
        }
        assertThat(service.listSessions(app, "u/v").blockingGet().sessionIds()).containsExactlyInAnyOrder(ids);
        for (String id : ids) {
            assertThat(get("u/v", id).events()).hasSize(1);
        }
        // "u" + "v/x" and "u/v" + "x" name different sessions
        create("u", null, "v/x");
        assertThat(get("u/v", "x")).isNull();
        assertThat(service.listSessions(app, "u").blockingGet().sessionIds()).containsExactly("v/x");
    }

    @Test
    void concurrentAppendsFromTwoServicesLoseNothingAndKeepOrder() throws Exception {
        create("user", null, "s-1");
        var peerProvider = reopenable() ? openProvider() : provider;
        var services = List.of(service, AgentPersistenceSessionService.of(peerProvider));
        int perWriter = 20;
        var barrier = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            var futures = new ArrayList<Future<?>>();
            for (int w = 0; w < 2; w++) {
                var writerService = services.get(w);
                String author = "writer-" + w;
                futures.add(pool.submit(() -> {
                    Session stale = writerService
                            .getSession(app, "user", "s-1", Optional.empty())
                            .blockingGet();
                    barrier.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < perWriter; i++) {
                        writerService
                                .appendEvent(
                                        stale,
                                        AdkEvents.withDelta(
                                                author, author + " " + i, Map.of("last-" + author, i), 1_000L + i))
                                .blockingGet();
                    }
                    return null;
                }));
            }
            for (var future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            if (peerProvider != provider) {
                peerProvider.close();
            }
        }
        Session read = get("user", "s-1");
        assertThat(read.events()).hasSize(2 * perWriter);
        for (int w = 0; w < 2; w++) {
            String author = "writer-" + w;
            assertThat(read.events().stream()
                            .filter(e -> e.author().equals(author))
                            .map(e -> e.content().orElseThrow().text())
                            .toList())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, perWriter)
                            .mapToObj(i -> author + " " + i)
                            .toList());
            assertThat(read.state()).containsEntry("last-" + author, perWriter - 1);
        }
    }
}
