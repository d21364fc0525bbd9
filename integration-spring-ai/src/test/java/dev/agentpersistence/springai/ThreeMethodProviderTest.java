package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.tck.RequiredMethodsProvider;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;

/** Over a provider that implements only the three required methods of the SPI (no deletion, no listing). */
class ThreeMethodProviderTest {

    @Test
    void conversationsAreSavedAndReadAndDeletingEmptiesThem() {
        var repository = AgentPersistenceChatMemoryRepository.of(
                new RequiredMethodsProvider<>(InMemoryStorage.builder().build()));
        List<Message> messages = List.of(new UserMessage("hi"), new AssistantMessage("hello"));

        repository.saveAll("c", messages);
        SameMessages.assertSame(repository.findByConversationId("c"), messages);

        repository.deleteByConversationId("c");

        assertThat(repository.findByConversationId("c")).isEmpty();
        repository.saveAll("c", List.of(new UserMessage("again")));
        assertThat(repository.findByConversationId("c"))
                .extracting(Message::getText)
                .containsExactly("again");
    }
}
