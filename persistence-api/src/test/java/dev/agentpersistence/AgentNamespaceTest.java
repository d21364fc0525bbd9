package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentNamespaceTest {
    private static final AgentNamespace CHAT = AgentNamespace.of("chat");

    @Test
    void storedIdsOfOneKindCannotNameAnotherKind() {
        String run = AgentNamespace.PIPELINE_RUNS.agentId("@journal/victim");
        String journal = AgentNamespace.TOOL_JOURNALS.agentId("victim");

        assertThat(run).isEqualTo("@run/@journal/victim").isNotEqualTo(journal);
        assertThat(AgentNamespace.containing(run)).contains(AgentNamespace.PIPELINE_RUNS);
        assertThat(AgentNamespace.containing(journal)).contains(AgentNamespace.TOOL_JOURNALS);
        assertThat(AgentNamespace.PIPELINE_RUNS.localId(run)).contains("@journal/victim");
        assertThat(AgentNamespace.TOOL_JOURNALS.localId(run)).isEmpty();
        assertThat(AgentNamespace.containing("plain")).isEmpty();
        assertThat(AgentNamespace.containing("__journal__/old")).contains(AgentNamespace.TOOL_JOURNALS);
    }

    @Test
    void aLocalIdThatWouldMakeTheStoredIdTooLongIsRefusedNotHashed() {
        String longest = "r".repeat(AgentNamespace.TOOL_JOURNALS.maxLocalLength());

        assertThat(AgentNamespace.TOOL_JOURNALS.agentId(longest)).hasSize(Identifiers.MAX_LENGTH);
        assertThatThrownBy(() -> AgentNamespace.TOOL_JOURNALS.agentId(longest + "r", "runId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("runId is 248 characters long; at most 247");
    }

    @Test
    void namesAreValidated() {
        assertThatThrownBy(() -> AgentNamespace.of("Chat/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AgentNamespace.of("")).isInstanceOf(IllegalArgumentException.class);
        assertThat(AgentNamespace.of("spring-ai.chat").prefix()).isEqualTo("@spring-ai.chat/");
    }

    @Test
    void aFacadeWithoutNamespaceRefusesToWriteReservedIds() {
        var persistence =
                AgentPersistence.builder().storage(new HeapTestStorage()).build();

        for (String id : List.of("@journal/victim", "@run/x", "__journal__/victim")) {
            assertThatThrownBy(() -> persistence.createCheckpoint(new SimpleAgentContext(id), null, null, null))
                    .isInstanceOf(InvalidIdentifierException.class)
                    .hasMessageContaining("reserved");
        }
        assertThat(persistence.storage().getCheckpoints("@journal/victim")).isEmpty();
    }

    @Test
    void aFacadeInANamespaceWritesOnlyThatNamespace() {
        var plain = AgentPersistence.builder().storage(new HeapTestStorage()).build();
        var chats = plain.inNamespace(CHAT);

        var saved = chats.createCheckpoint(new SimpleAgentContext(CHAT.agentId("m1")), null, null, null);

        assertThat(saved.agentId()).isEqualTo("@chat/m1");
        assertThat(chats.namespace()).contains(CHAT);
        assertThat(plain.namespace()).isEmpty();
        assertThatThrownBy(() -> chats.createCheckpoint(new SimpleAgentContext("m1"), null, null, null))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("not an agent of namespace 'chat'");
        assertThatThrownBy(() -> chats.createCheckpoint(
                        new SimpleAgentContext(AgentNamespace.PIPELINE_RUNS.agentId("m1")), null, null, null))
                .isInstanceOf(InvalidIdentifierException.class);
        assertThat(plain.checkpoints("@chat/m1")).hasSize(1);
    }
}
