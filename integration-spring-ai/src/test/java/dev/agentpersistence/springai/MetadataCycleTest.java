package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.inmemory.InMemoryStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.UserMessage;

/** Metadata that contains itself is a mapping error naming the key, not a stack overflow; nothing is written. */
class MetadataCycleTest {
    @Test
    void aMapOrListThatContainsItselfIsAMappingError() {
        try (var storage = InMemoryStorage.builder().build()) {
            var repository = AgentPersistenceChatMemoryRepository.of(storage);
            Map<String, Object> loop = new HashMap<>();
            loop.put("self", loop);
            List<Object> list = new ArrayList<>();
            list.add(list);

            for (Object value : List.of(loop, list)) {
                var message = UserMessage.builder()
                        .text("hi")
                        .metadata(Map.of("trace", value))
                        .build();
                assertThatThrownBy(() -> repository.saveAll("c", List.of(message)))
                        .isInstanceOf(ChatMemoryMappingException.class)
                        .hasMessageContaining("trace")
                        .hasMessageContaining("contains itself");
            }
            assertThat(storage.listAgents()).isEmpty();
        }
    }

    @Test
    void theSameMapTwiceSideBySideIsNoCycle() {
        try (var storage = InMemoryStorage.builder().build()) {
            var repository = AgentPersistenceChatMemoryRepository.of(storage);
            Map<String, Object> shared = Map.of("k", "v");
            var message = UserMessage.builder()
                    .text("hi")
                    .metadata(Map.of("a", shared, "b", List.of(shared, shared)))
                    .build();
            repository.saveAll("c", List.of(message));
            assertThat(repository.findByConversationId("c").get(0).getMetadata())
                    .containsEntry("a", shared)
                    .containsEntry("b", List.of(shared, shared));
        }
    }
}
