package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.sessions.Session;
import com.google.genai.types.Part;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.adk.internal.AdkRecords;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.memory.ConversationStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ADK data lives in the namespace {@code adk}: a plain facade id cannot name it; a store of earlier versions reads. */
class AdkNamespaceTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage =
            InMemoryStorage.builder().build();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void aPlainFacadeCannotWriteAnAdkSessionsAgent() {
        var sessions = AgentPersistenceSessionService.of(storage);
        sessions.createSession("app", "u", Map.of(), "s").blockingGet();
        String agentId = storage.listAgents().get(0);
        var facade = AgentPersistence.builder().storage(storage).build();

        assertThatThrownBy(() -> facade.createCheckpoint(new SimpleAgentContext(agentId), "node", null, null))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("reserved");
        assertThat(storage.getCheckpoints(agentId)).hasSize(1);
        assertThat(sessions.getSession("app", "u", "s", Optional.empty()).blockingGet())
                .isNotNull();
    }

    @Test
    void noAgentOfAnAdkServiceCanBeNamedByAPlainId() {
        var sessions = AgentPersistenceSessionService.of(storage);
        Session session = sessions.createSession("app", "u", Map.of(), "s").blockingGet();
        sessions.appendEvent(session, AdkEvents.withDelta(Map.of("app:k", 1, "user:k", 2), 1_000))
                .blockingGet();
        AgentPersistenceArtifactService.of(storage)
                .saveArtifact("app", "u", "s", "f.txt", Part.fromText("v0"))
                .blockingGet();
        AgentPersistenceArtifactService.of(storage)
                .saveArtifact("app", "u", "s", "user:f.txt", Part.fromText("v0"))
                .blockingGet();
        AgentPersistenceMemoryService.of(storage)
                .addSessionToMemory(
                        sessions.getSession("app", "u", "s", Optional.empty()).blockingGet())
                .blockingAwait();

        assertThat(storage.listAgents())
                .hasSize(6)
                .allSatisfy(id -> assertThat(id).startsWith("@adk/"));
    }

    @Test
    void aStoreWrittenBeforeNamespacesStaysReadableAndWritableWithTheOption() {
        // as versions before namespaces wrote a session with one event, and the shared app state
        Instant created = Instant.parse("2026-01-01T00:00:00Z");
        storage.saveCheckpoint(
                "adk/session/app/u/s",
                AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId("adk/session/app/u/s")
                        .version(0)
                        .createdAt(created)
                        .nodeId(ConversationStore.NODE_ID)
                        .messageHistory(List.of(
                                AdkRecords.session(created, Map.of("k", "v")),
                                AdkRecords.event(AdkEvents.text("user", "hello", 1_000))))
                        .build());
        storage.saveCheckpoint(
                "adk/app-state/app",
                AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId("adk/app-state/app")
                        .version(0)
                        .createdAt(created)
                        .nodeId(ConversationStore.NODE_ID)
                        .messageHistory(List.of(AdkRecords.delta(Map.of("theme", "dark"), List.of())))
                        .build());

        var legacy = AgentPersistenceSessionService.builder(storage)
                .withoutNamespace()
                .build();
        Session session = legacy.getSession("app", "u", "s", Optional.empty()).blockingGet();

        assertThat(session.events()).hasSize(1);
        assertThat(session.state()).containsEntry("k", "v").containsEntry("app:theme", "dark");
        assertThat(legacy.listSessions("app", "u").blockingGet().sessions())
                .extracting(Session::id)
                .containsExactly("s");
        legacy.appendEvent(session, AdkEvents.text("agent", "hi", 2_000)).blockingGet();
        assertThat(storage.getCheckpoints("adk/session/app/u/s")).hasSize(2);
        assertThat(AgentPersistenceSessionService.of(storage)
                        .getSession("app", "u", "s", Optional.empty())
                        .blockingGet())
                .as("the namespaced service does not see the old ids")
                .isNull();
    }

    @Test
    void artifactsAndMemoriesKeepTheirEarlierIdsWithTheOption() {
        var artifacts = AgentPersistenceArtifactService.builder(storage)
                .withoutNamespace()
                .build();
        artifacts.saveArtifact("app", "u", "s", "f.txt", Part.fromText("v0")).blockingGet();
        var sessions = AgentPersistenceSessionService.builder(storage)
                .withoutNamespace()
                .build();
        Session session = sessions.createSession("app", "u", Map.of(), "s").blockingGet();
        sessions.appendEvent(session, AdkEvents.text("user", "remember the harbour", 1_000))
                .blockingGet();
        AgentPersistenceMemoryService.builder(storage)
                .withoutNamespace()
                .build()
                .addSessionToMemory(session)
                .blockingAwait();

        assertThat(storage.listAgents())
                .containsExactlyInAnyOrder("adk/artifact/app/u/s/f.txt", "adk/session/app/u/s", "adk/memory/app/u/s");
        assertThat(AgentPersistenceArtifactService.builder(storage)
                        .withoutNamespace()
                        .build()
                        .loadArtifact("app", "u", "s", "f.txt", null)
                        .blockingGet()
                        .text())
                .contains("v0");
        assertThat(AgentPersistenceMemoryService.builder(storage)
                        .withoutNamespace()
                        .build()
                        .searchMemory("app", "u", "harbour")
                        .blockingGet()
                        .memories())
                .hasSize(1);
    }
}
