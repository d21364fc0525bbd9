package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's own {@link MessageWindowChatMemory} with a window of 2 evicts an AI message that made two tool calls
 * together with the first result, then is handed the second result: [system, result of an evicted call]. The store
 * never hands that orphaned result back at the head of the window.
 */
class WindowHeadTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage =
            InMemoryStorage.builder().build();
    private final AgentPersistenceChatMemoryStore store = AgentPersistenceChatMemoryStore.of(storage);

    @AfterEach
    void close() {
        storage.close();
    }

    private static ToolExecutionRequest request(String id, String room) {
        return ToolExecutionRequest.builder()
                .id(id)
                .name("book")
                .arguments("{\"room\":" + room + "}")
                .build();
    }

    @Test
    void theSecondResultOfAnEvictedCallNeverHeadsTheWindow() {
        var memory = MessageWindowChatMemory.builder()
                .id("m")
                .maxMessages(2)
                .chatMemoryStore(store)
                .build();
        memory.add(SystemMessage.from("be brief"));
        memory.add(UserMessage.from("book rooms 7 and 8"));
        memory.add(AiMessage.from(List.of(request("call-7", "7"), request("call-8", "8"))));
        memory.add(ToolExecutionResultMessage.from("call-7", "book", "booked 7"));
        memory.add(ToolExecutionResultMessage.from("call-8", "book", "booked 8"));

        List<ChatMessage> window = memory.messages();

        assertThat(window).containsExactly(SystemMessage.from("be brief"));
        assertThat(store.getMessages("m")).containsExactly(SystemMessage.from("be brief"));
        assertThat(store.conversations().load("m").history())
                .extracting(message -> message.role().name())
                .containsExactly("SYSTEM", "USER", "TOOL_CALL", "TOOL_CALL", "TOOL_RESULT");

        memory.add(UserMessage.from("thanks"));
        assertThat(memory.messages()).containsExactly(SystemMessage.from("be brief"), UserMessage.from("thanks"));
    }
}
