package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.memory.ConversationStore;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every LangChain4j message type, with generated fields, reads back equal: from the mapping and from storage. */
class MessageRoundTripPropertyTest {
    private final ConversationStore conversations =
            ConversationStore.of(InMemoryStorage.builder().build());

    @Provide
    Arbitrary<List<ChatMessage>> conversation() {
        // a window starts with a conversational message: one headed by a tool result is aligned (WindowHeadTest)
        return GeneratedMessages.messages().list().ofMinSize(1).ofMaxSize(6).map(generated -> {
            var messages = new ArrayList<ChatMessage>(List.of(UserMessage.from("start")));
            messages.addAll(generated);
            return messages;
        });
    }

    @Property(tries = 300)
    void everyMessageReadsBackEqual(@ForAll("conversation") List<ChatMessage> messages) {
        List<Message> stored = LangChain4jMessages.toMessages(messages);
        assertThat(LangChain4jMessages.fromMessages(stored)).isEqualTo(messages);

        String id = UUID.randomUUID().toString();
        conversations.append(id, stored);
        assertThat(LangChain4jMessages.fromMessages(conversations.load(id).messages()))
                .isEqualTo(messages);
    }

    @Property(tries = 100)
    void theMappingIsDeterministicSoAReplaceOfTheSameListWritesNothing(
            @ForAll("conversation") List<ChatMessage> messages) {
        String id = UUID.randomUUID().toString();
        var first = conversations.replace(id, LangChain4jMessages.toMessages(messages));
        var again = conversations.replace(id, LangChain4jMessages.toMessages(messages));
        assertThat(again.version()).isEqualTo(first.version());
        for (int i = 0; i < first.messages().size(); i++) {
            assertThat(first.messages()
                            .get(i)
                            .sameContentAs(
                                    LangChain4jMessages.toMessages(messages).get(i)))
                    .isTrue();
        }
    }
}
