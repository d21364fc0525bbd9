package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.UserMessage;

/** Spring AI conversations live in their own namespace; ids are checked as Spring AI's own repositories check them. */
class ConversationNamespaceTest {
    @TempDir
    Path dir;

    private PersistenceStorageProvider<CheckpointFilter> provider;

    @BeforeEach
    void open() {
        provider = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("chat.db"))
                        .build())
                .build();
    }

    @AfterEach
    void close() {
        provider.close();
    }

    private void storeAgent(String agentId) {
        for (int v = 0; v < 2; v++) {
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

    @Test
    void aConversationNamedLikeARunOrAJournalNeverTouchesIt() {
        var legacyDefault = AgentPersistenceChatMemoryRepository.builder(provider)
                .conversationIdPrefix("")
                .build();
        List<String> victims = List.of("run-7", "@run/run-7", "__journal__/run-7", "@journal/run-7");
        victims.forEach(this::storeAgent);

        for (String id : List.of("run-7", "@run/run-7", "__journal__/run-7", "@journal/run-7")) {
            legacyDefault.saveAll(id, List.of(new UserMessage("hello")));
            legacyDefault.deleteByConversationId(id);
        }

        for (String victim : victims) {
            assertThat(provider.getCheckpoints(victim))
                    .extracting(AgentCheckpoint::checkpointId)
                    .containsExactly("cp-0", "cp-1");
        }
        assertThat(legacyDefault.agentId("@run/run-7")).isEqualTo("@spring-ai/@run/run-7");
    }

    @Test
    void aStoreWrittenWithoutNamespacesStaysReadableAndWritableWhenOptedIn() {
        provider.saveCheckpoint(
                "spring-ai:ana",
                AgentCheckpoint.builder()
                        .checkpointId("old-0")
                        .agentId("spring-ai:ana")
                        .version(0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId("conversation")
                        .messageHistory(List.of(Message.user("hello")))
                        .build());
        var legacy = AgentPersistenceChatMemoryRepository.builder(provider)
                .withoutNamespace()
                .build();

        assertThat(legacy.findByConversationId("ana"))
                .extracting(m -> m.getText())
                .containsExactly("hello");
        assertThat(AgentPersistenceChatMemoryRepository.of(provider).findByConversationId("ana"))
                .isEmpty();
        assertThat(legacy.findConversationIds()).containsExactly("ana");
        legacy.saveAll("ana", List.of(new UserMessage("hello"), new UserMessage("again")));
        assertThat(provider.getLatestCheckpoint("spring-ai:ana").orElseThrow().version())
                .isEqualTo(1);
    }

    @Test
    void aNullOrEmptyConversationIdIsRefusedAsSpringAiRefusesIt() {
        var repository = AgentPersistenceChatMemoryRepository.of(provider);
        for (String id : new String[] {null, ""}) {
            assertThatThrownBy(() -> repository.findByConversationId(id)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> repository.saveAll(id, List.of(new UserMessage("x"))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> repository.deleteByConversationId(id))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(provider.listAgents()).isEmpty();
    }
}
