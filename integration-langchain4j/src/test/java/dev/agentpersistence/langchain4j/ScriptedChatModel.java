package dev.agentpersistence.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deterministic chat model for tests: "create user NAME" asks for the {@code createUser} tool, a tool result is
 * answered with "Done: RESULT", anything else with "echo: TEXT". Records every request's messages, so tests can check
 * what the model was shown.
 */
final class ScriptedChatModel implements ChatModel {
    private final AtomicInteger calls = new AtomicInteger();
    final List<List<ChatMessage>> requests = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(List.copyOf(request.messages()));
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        AiMessage answer;
        if (last instanceof ToolExecutionResultMessage result) {
            answer = AiMessage.from("Done: " + result.text());
        } else if (last instanceof UserMessage user && user.singleText().startsWith("create user ")) {
            String name = user.singleText().substring("create user ".length());
            answer = AiMessage.from(ToolExecutionRequest.builder()
                    .id("call-" + calls.incrementAndGet())
                    .name("createUser")
                    .arguments("{\"name\":\"" + name + "\"}")
                    .build());
        } else {
            answer = AiMessage.from("echo: " + ((UserMessage) last).singleText());
        }
        return ChatResponse.builder().aiMessage(answer).build();
    }
}
