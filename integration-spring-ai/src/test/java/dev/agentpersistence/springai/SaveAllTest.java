package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** What {@code saveAll} writes, and every message type through a real stored form (the in-memory provider). */
class SaveAllTest {
    private final StorageShell provider = InMemoryStorage.builder().build();
    private final AgentPersistenceChatMemoryRepository repository = AgentPersistenceChatMemoryRepository.of(provider);

    @AfterEach
    void close() {
        provider.close();
    }

    static LongStream seeds() {
        return LongStream.range(0, 100);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyMessageTypeIsReadBackExactlyAfterSavingAndAppending(long seed) {
        var random = new RandomMessages(seed);
        // a window starts with a conversational message: one headed by a tool result is aligned (WindowHeadTest)
        List<Message> first = new ArrayList<>(List.of(new UserMessage("start")));
        first.addAll(random.conversation(8));
        List<Message> both = new ArrayList<>(first);
        both.addAll(random.conversation(8));

        repository.saveAll("c", first);
        SameMessages.assertSame(repository.findByConversationId("c"), first);
        repository.saveAll("c", both);

        SameMessages.assertSame(
                AgentPersistenceChatMemoryRepository.of(provider).findByConversationId("c"), both);
    }

    @Test
    void eachSaveWritesOneCheckpointThatKeepsTheStoredMessagesAndAddsOnlyTheTail() {
        List<Message> messages = new ArrayList<>(List.of(new SystemMessage("be brief"), new UserMessage("hi")));
        repository.saveAll("c", messages);
        var before = latest();

        messages.add(new AssistantMessage("hello"));
        messages.add(new UserMessage("bye"));
        assertThat(repository.findByConversationId("c")).hasSize(2);
        repository.saveAll("c", messages);
        var after = latest();

        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.parentCheckpointId()).isEqualTo(before.checkpointId());
        assertThat(after.messageHistory()).hasSize(4);
        // The stored messages are the same messages (same ids), not deleted and inserted again.
        assertThat(after.messageHistory().subList(0, 2)).isEqualTo(before.messageHistory());
    }

    @Test
    void savingTheListThatIsStoredWritesNothing() {
        repository.saveAll("c", List.of(new UserMessage("hi"), new AssistantMessage("hello")));
        long version = latest().version();

        repository.saveAll("c", repository.findByConversationId("c"));

        assertThat(latest().version()).isEqualTo(version);
    }

    @Test
    void windowEvictionKeepsTheEvictedMessagesInTheHistory() {
        var memory = MessageWindowChatMemory.builder()
                .chatMemoryRepository(repository)
                .maxMessages(4)
                .build();
        for (int turn = 0; turn < 5; turn++) {
            memory.add("c", new UserMessage("question " + turn));
            memory.add("c", new AssistantMessage("answer " + turn));
        }

        assertThat(repository.findByConversationId("c"))
                .extracting(Message::getText)
                .containsExactly("question 3", "answer 3", "question 4", "answer 4");
        assertThat(repository.store().load("c").history()).hasSize(10);
    }

    private AgentCheckpoint latest() {
        return provider.getLatestCheckpoint(repository.agentId("c"), CheckpointFilter.ALL)
                .orElseThrow();
    }
}
