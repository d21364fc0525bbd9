package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.memory.ConversationStore;
import dev.langchain4j.service.AiServices;
import org.junit.jupiter.api.Test;

/** An AI Service without chat memory: its tool executions recorded, then undone by a rollback. */
class ToolExecutionRecorderTest {
    /** A stateless AI Service. */
    interface Assistant {
        String chat(String text);
    }

    /** A tool that fails for one name. */
    static final class FlakyUsers {
        final Users users = new Users();

        @dev.langchain4j.agent.tool.Tool("Creates a user account")
        String createUser(String name) {
            if (name.equals("mallory")) {
                throw new IllegalStateException("refused");
            }
            return users.createUser(name);
        }
    }

    private final ConversationStore conversations =
            ConversationStore.of(InMemoryStorage.builder().build());

    @Test
    void executedToolCallsAreRecordedAndARollbackUndoesThem() {
        var tools = new FlakyUsers();
        var assistant = AiServices.builder(Assistant.class)
                .chatModel(new ScriptedChatModel())
                .tools(tools)
                .afterToolExecution(ToolExecutionRecorder.into(conversations, "agent-7"))
                .build();
        conversations.append("agent-7", Message.system("tool log of agent-7"));
        var start = conversations.load("agent-7").checkpoint().orElseThrow().checkpointId();

        assistant.chat("create user ada");
        assistant.chat("create user mallory");
        assistant.chat("create user bob");

        var history = conversations.load("agent-7").history();
        assertThat(history)
                .filteredOn(m -> m.role() == Message.Role.TOOL_CALL)
                .extracting(m -> m.toolCall().arguments().get("name").asText())
                .containsExactly("ada", "bob");
        assertThat(history)
                .filteredOn(m -> m.role() == Message.Role.TOOL_RESULT)
                .extracting(Message::content)
                .containsExactly("created ada", "created bob");
        assertThat(tools.users.names).containsExactlyInAnyOrder("ada", "bob");

        var report = conversations.rollbackTo(
                "agent-7",
                start,
                RollbackToolRegistry.builder()
                        .registerRollback("createUser", tools.users.deleteUser())
                        .build());

        assertThat(report.toolRollback().performed()).hasSize(2);
        assertThat(tools.users.names).isEmpty();
    }
}
