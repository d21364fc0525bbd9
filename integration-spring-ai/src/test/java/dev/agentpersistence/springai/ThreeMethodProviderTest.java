package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.InMemoryStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;

/** Over a provider that implements only the three required methods of the SPI (no deletion, no listing). */
class ThreeMethodProviderTest {

    /** The seed's shape: three methods, everything else left to the defaults. */
    private static final class ThreeMethods implements PersistenceStorageProvider<CheckpointFilter> {
        private final InMemoryStorageProvider heap = new InMemoryStorageProvider();

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return heap.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            heap.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return heap.getLatestCheckpoint(agentId, filter);
        }
    }

    @Test
    void conversationsAreSavedAndReadAndDeletingEmptiesThem() {
        var repository = AgentPersistenceChatMemoryRepository.of(new ThreeMethods());
        List<Message> messages = List.of(new UserMessage("hi"), new AssistantMessage("hello"));

        repository.saveAll("c", messages);
        SameMessages.assertSame(repository.findByConversationId("c"), messages);

        repository.deleteByConversationId("c");

        assertThat(repository.findByConversationId("c")).isEmpty();
        repository.saveAll("c", List.of(new UserMessage("again")));
        assertThat(repository.findByConversationId("c")).extracting(Message::getText).containsExactly("again");
    }
}
