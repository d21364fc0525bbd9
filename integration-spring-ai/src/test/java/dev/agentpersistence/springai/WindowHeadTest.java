package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI's own {@link MessageWindowChatMemory} with a window of 2 evicts an assistant message's tool call and then
 * is handed its response alone ([system, tool response]); the repository never hands that orphaned response back at the
 * head of the window.
 */
class WindowHeadTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage =
            InMemoryStorage.builder().build();
    private final AgentPersistenceChatMemoryRepository repository = AgentPersistenceChatMemoryRepository.of(storage);
    private final MessageWindowChatMemory memory = MessageWindowChatMemory.builder()
            .chatMemoryRepository(repository)
            .maxMessages(2)
            .build();

    @AfterEach
    void close() {
        storage.close();
    }

    private static AssistantMessage bookingCall() {
        return AssistantMessage.builder()
                .content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "book", "{\"room\":7}")))
                .build();
    }

    private static ToolResponseMessage bookingResult() {
        return ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse("call-1", "book", "booked")))
                .build();
    }

    @Test
    void aTurnWhoseCallTheWindowEvictedNeverStartsWithItsResult() {
        memory.add("c", List.of(new SystemMessage("be brief"), new UserMessage("book room 7"), bookingCall()));
        memory.add("c", bookingResult());

        List<Message> window = memory.get("c");
        assertThat(window).extracting(Message::getMessageType).containsExactly(MessageType.SYSTEM);
        // Spring AI evicted the user message and the call before saving, then handed over the result alone
        assertThat(repository.store().load("c").history())
                .extracting(message -> message.role().name())
                .containsExactly("SYSTEM", "TOOL_RESULT");

        memory.add("c", new UserMessage("thanks"));
        assertThat(memory.get("c"))
                .extracting(Message::getMessageType)
                .containsExactly(MessageType.SYSTEM, MessageType.USER);
    }
}
