package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.Message.Role;
import dev.agentpersistence.ToolCall;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** The mapping between Spring AI messages and stored messages, without storage. */
class MessageMappingTest {

    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyMessageTypeMapsBackExactly(long seed) {
        List<Message> messages = new RandomMessages(seed).conversation(12);

        var stored = ToStoredMessages.of("c", messages);

        SameMessages.assertSame(FromStoredMessages.of("c", stored), messages);
    }

    @Test
    void toolCallsAreStoredAsToolCallMessagesThatRollbackCanRead() throws Exception {
        var assistant = AssistantMessage.builder()
                .content("checking")
                .toolCalls(List.of(
                        new AssistantMessage.ToolCall("call-1", "function", "createUser", "{\"name\":\"Daniel\"}"),
                        new AssistantMessage.ToolCall("call-2", "function", "createUser", "{\"name\": \"Maria\"}")))
                .build();
        var responses = ToolResponseMessage.builder()
                .responses(List.of(
                        new ToolResponseMessage.ToolResponse("call-1", "createUser", "created"),
                        new ToolResponseMessage.ToolResponse("call-2", "createUser", "created")))
                .build();

        var stored = ToStoredMessages.of("c", List.of(assistant, responses));

        assertThat(stored)
                .extracting(dev.agentpersistence.Message::role)
                .containsExactly(Role.ASSISTANT, Role.TOOL_CALL, Role.TOOL_CALL, Role.TOOL_RESULT, Role.TOOL_RESULT);
        var json = new ObjectMapper();
        assertThat(stored.get(2).toolCall())
                .isEqualTo(new ToolCall("call-2", "createUser", json.readTree("{\"name\":\"Maria\"}")));
        assertThat(stored.get(4).metadata())
                .containsEntry(dev.agentpersistence.Message.TOOL_CALL_ID, "call-2")
                .containsEntry(dev.agentpersistence.Message.TOOL_NAME, "createUser");
    }

    @Test
    void toolMessagesWrittenWithoutSpringAiKeysAreGroupedByRuns() {
        var json = new ObjectMapper().createObjectNode().put("name", "Daniel");
        var stored = List.of(
                dev.agentpersistence.Message.user("add Daniel"),
                dev.agentpersistence.Message.toolCall(new ToolCall("c1", "createUser", json)),
                dev.agentpersistence.Message.toolCall(new ToolCall("c2", "createUser", json)),
                dev.agentpersistence.Message.toolResult("c1", "createUser", "ok"),
                dev.agentpersistence.Message.toolResult("c2", "createUser", "ok"),
                dev.agentpersistence.Message.assistant("done"));

        var messages = FromStoredMessages.of("c", stored);

        assertThat(messages).hasSize(4);
        assertThat(((AssistantMessage) messages.get(1)).getToolCalls())
                .extracting(AssistantMessage.ToolCall::id)
                .containsExactly("c1", "c2");
        assertThat(((ToolResponseMessage) messages.get(2)).getResponses())
                .extracting(ToolResponseMessage.ToolResponse::id)
                .containsExactly("c1", "c2");
        assertThat(messages.get(3).getText()).isEqualTo("done");
    }

    @Test
    void metadataJacksonCannotWriteNamesTheMessageAndKey() {
        var message = UserMessage.builder()
                .text("hi")
                .metadata(Map.of("stream", new Object()))
                .build();

        assertThatThrownBy(() -> ToStoredMessages.of(
                        "conv-7", List.of(UserMessage.builder().text("a").build(), message)))
                .isInstanceOf(ChatMemoryMappingException.class)
                .hasMessageContaining("Message 1 of conversation 'conv-7'")
                .hasMessageContaining("'stream'");
    }
}
