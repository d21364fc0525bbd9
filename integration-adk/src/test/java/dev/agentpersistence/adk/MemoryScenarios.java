package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.sessions.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The memory scenarios, with the same assertions for ADK's {@code InMemoryMemoryService} and for
 * {@link AgentPersistenceMemoryService} on each provider.
 */
abstract class MemoryScenarios {
    protected final String app = "app-" + UUID.randomUUID();

    protected abstract BaseMemoryService memory();

    protected static Session session(String app, String user, String id, Event... events) {
        return Session.builder(id)
                .appName(app)
                .userId(user)
                .events(new ArrayList<>(List.of(events)))
                .build();
    }

    protected List<String> search(String user, String query) {
        return memory().searchMemory(app, user, query).blockingGet().memories().stream()
                .map(MemoryScenarios::describe)
                .toList();
    }

    protected static String describe(MemoryEntry entry) {
        return entry.author() + "|" + entry.content().text() + "|" + entry.timestamp();
    }

    @Test
    void nothingIsFoundBeforeAnythingIsAdded() {
        assertThat(search("user", "tea")).isEmpty();
    }

    @Test
    void eventsSharingAWordWithTheQueryAreFound() {
        memory().addSessionToMemory(session(
                        app,
                        "user",
                        "s-1",
                        AdkEvents.text("user", "I like green tea.", 1_000),
                        AdkEvents.text("agent", "The weather is sunny!", 2_000),
                        AdkEvents.withDelta(Map.of("k", "v"), 3_000)))
                .blockingAwait();
        assertThat(search("user", "tea")).containsExactly("user|I like green tea.|" + Instant.ofEpochSecond(1_000));
        assertThat(search("user", "TEA coffee")).hasSize(1);
        assertThat(search("user", "weather   tea")).hasSize(2);
        assertThat(search("user", "tea.")).isEmpty();
        assertThat(search("user", "nothing")).isEmpty();
    }

    @Test
    void searchCoversTheUsersSessionsOnly() {
        memory().addSessionToMemory(session(app, "user", "s-1", AdkEvents.text("user", "tea in the morning", 1_000)))
                .blockingAwait();
        memory().addSessionToMemory(session(app, "user", "s-2", AdkEvents.text("agent", "tea at night", 2_000)))
                .blockingAwait();
        memory().addSessionToMemory(session(app, "other", "s-3", AdkEvents.text("user", "tea for two", 3_000)))
                .blockingAwait();
        memory().addSessionToMemory(session("other-" + app, "user", "s-4", AdkEvents.text("user", "tea", 4_000)))
                .blockingAwait();
        assertThat(search("user", "tea"))
                .containsExactlyInAnyOrder(
                        "user|tea in the morning|" + Instant.ofEpochSecond(1_000),
                        "agent|tea at night|" + Instant.ofEpochSecond(2_000));
        assertThat(search("other", "tea")).hasSize(1);
        assertThat(search("nobody", "tea")).isEmpty();
    }

    @Test
    void addingASessionAgainReplacesWhatMemoryHeld() {
        memory().addSessionToMemory(session(app, "user", "s-1", AdkEvents.text("user", "tea one", 1_000)))
                .blockingAwait();
        memory().addSessionToMemory(session(
                        app,
                        "user",
                        "s-1",
                        AdkEvents.text("user", "tea one", 1_000),
                        AdkEvents.text("agent", "tea two", 2_000)))
                .blockingAwait();
        assertThat(search("user", "tea")).hasSize(2);
    }
}
