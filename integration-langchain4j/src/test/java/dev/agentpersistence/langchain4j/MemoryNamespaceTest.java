package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LangChain4j memories live in their own namespace: no memory id names a pipeline run, a journal or a legacy agent. */
class MemoryNamespaceTest {
    @TempDir
    Path dir;

    private PersistenceStorageProvider<CheckpointFilter> provider;

    @BeforeEach
    void open() {
        provider = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("memory.db"))
                        .build())
                .build();
    }

    @AfterEach
    void close() {
        provider.close();
    }

    private void storeAgent(String agentId, int checkpoints) {
        for (int v = 0; v < checkpoints; v++) {
            provider.saveCheckpoint(
                    agentId,
                    AgentCheckpoint.builder()
                            .checkpointId("cp-" + v)
                            .agentId(agentId)
                            .version(v)
                            .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                            .nodeId("charge")
                            .messageHistory(List.of(Message.user("step " + v)))
                            .build());
        }
    }

    private static List<ChatMessage> hello() {
        return List.of(UserMessage.from("hello"));
    }

    @Test
    void aMemoryNamedLikeARunNeverWritesOrDeletesTheRun() {
        storeAgent("run-7", 2);
        storeAgent("@run/run-7", 3);
        var store = AgentPersistenceChatMemoryStore.of(provider);

        store.updateMessages("run-7", hello());
        store.deleteMessages("run-7");
        store.updateMessages("@run/run-7", hello());
        store.deleteMessages("@run/run-7");

        assertThat(provider.getCheckpoints("run-7")).hasSize(2);
        assertThat(provider.getCheckpoints("@run/run-7")).hasSize(3);
        assertThat(provider.getLatestCheckpoint("@run/run-7").orElseThrow().checkpointId())
                .isEqualTo("cp-2");
    }

    @Test
    void aMemoryNamedLikeAJournalNeverTouchesTheJournal() {
        storeAgent("__journal__/run-7", 2);
        storeAgent("@journal/run-7", 2);
        var store = AgentPersistenceChatMemoryStore.of(provider);

        store.updateMessages("__journal__/run-7", hello());
        store.updateMessages("@journal/run-7", hello());

        assertThat(provider.getCheckpoints("__journal__/run-7"))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly("cp-0", "cp-1");
        assertThat(provider.getCheckpoints("@journal/run-7"))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly("cp-0", "cp-1");
        assertThat(store.getMessages("@journal/run-7")).isEqualTo(hello());
        assertThat(store.conversations().agentId("@journal/run-7")).isEqualTo("@langchain4j/@journal/run-7");
    }

    @Test
    void aMemoryIdTooLongForTheNamespaceIsATypedError() {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        String longId = "m".repeat(AgentPersistenceChatMemoryStore.NAMESPACE.maxLocalLength() + 1);

        assertThatThrownBy(() -> store.updateMessages(longId, hello()))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("namespace 'langchain4j'");
        assertThat(provider.listAgents()).isEmpty();
    }

    @Test
    void aStoreWrittenWithoutNamespacesStaysReadableAndWritableWhenOptedIn() {
        // what earlier versions stored: agent id = memory id, the whole history as the window
        provider.saveCheckpoint(
                "ana",
                AgentCheckpoint.builder()
                        .checkpointId("old-0")
                        .agentId("ana")
                        .version(0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId("conversation")
                        .messageHistory(LangChain4jMessages.toMessages(hello()))
                        .build());
        var legacy = AgentPersistenceChatMemoryStore.builder(provider)
                .withoutNamespace()
                .build();
        var namespaced = AgentPersistenceChatMemoryStore.of(provider);

        assertThat(legacy.getMessages("ana")).isEqualTo(hello());
        assertThat(namespaced.getMessages("ana")).isEmpty();

        var more = List.<ChatMessage>of(UserMessage.from("hello"), UserMessage.from("again"));
        legacy.updateMessages("ana", more);
        assertThat(provider.getLatestCheckpoint("ana").orElseThrow().version()).isEqualTo(1);
        assertThat(legacy.getMessages("ana")).isEqualTo(more);
        assertThatThrownBy(() -> legacy.updateMessages("@run/run-7", hello()))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("reserved");
    }
}
