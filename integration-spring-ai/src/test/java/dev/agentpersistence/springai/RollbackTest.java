package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.Message;

/** Tool calls a ChatClient made are stored as tool call messages, so a rollback undoes their side effects. */
class RollbackTest {
    @TempDir
    Path dir;

    @Test
    void rollingBackAConversationUndoesTheToolCallsMadeSinceAndRestoresItsMemory() throws Exception {
        var booking = new BookingTool();
        try (var storage = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("memory.db"))
                        .build())
                .build()) {
            var repository = AgentPersistenceChatMemoryRepository.of(storage);
            var memory = MessageWindowChatMemory.builder()
                    .chatMemoryRepository(repository)
                    .maxMessages(20)
                    .build();
            var client = ChatClient.builder(new ScriptedChatModel())
                    .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory)
                            .order(ToolCallingAdvisor.DEFAULT_ORDER + 1)
                            .build())
                    .defaultTools(booking)
                    .build();

            ask(client, "Hello, I am Ana");
            String beforeBooking =
                    repository.store().load("c").checkpoint().orElseThrow().checkpointId();
            assertThat(ask(client, "Please book a table for Ana")).isEqualTo("Done: table booked for Ana");
            assertThat(booking.bookings()).containsExactly("Ana");

            var report = repository
                    .store()
                    .rollbackTo(
                            "c",
                            beforeBooking,
                            RollbackToolRegistry.builder()
                                    .registerRollback("book", booking.cancel())
                                    .build());

            assertThat(report.isClean()).isTrue();
            assertThat(report.performed())
                    .singleElement()
                    .satisfies(call -> assertThat(call.original().toolName()).isEqualTo("book"));
            assertThat(booking.bookings()).isEmpty();
            assertThat(repository.findByConversationId("c"))
                    .extracting(Message::getText)
                    .containsExactly(
                            "Hello, I am Ana",
                            "You said: Hello, I am Ana. I see 1 messages, the first: Hello, I am Ana");
        }
    }

    private static String ask(ChatClient client, String question) {
        return client.prompt()
                .user(question)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c"))
                .call()
                .content();
    }
}
