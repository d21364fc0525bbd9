package dev.agentpersistence.springai;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingChatOptions;

/**
 * A deterministic {@link ChatModel}: no network, the same answer for the same prompt.
 *
 * <ul>
 *   <li>The last message is a user message asking for "the weather in X": it answers with a call of the {@code weather}
 *       tool for X, with call id {@code call-n} for the n-th tool-calling answer in the prompt (the model keeps no
 *       state between calls).
 *   <li>The last message is a user message asking to "book a table for N": it calls the {@code book} tool with that
 *       name, ids as above.
 *   <li>The last message is a tool response: it answers "The weather in X: <response>" for the weather tool, "Done:
 *       <response>" for others.
 *   <li>Otherwise it answers "You said: <text>. I see n messages, the first: <text of the first non-system message>",
 *       which shows what memory handed it.
 * </ul>
 *
 * Every prompt it receives is kept, for assertions on what the model saw.
 */
final class ScriptedChatModel implements ChatModel {
    private static final Pattern WEATHER = Pattern.compile("weather in (\\p{L}+)");
    private static final Pattern BOOKING = Pattern.compile("book a table for (\\p{L}+)");

    private final List<List<Message>> prompts = Collections.synchronizedList(new ArrayList<>());

    @Override
    public ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions().stream()
                .filter(m -> !(m.getMessageType() == MessageType.SYSTEM
                        && m.getText().isEmpty()))
                .toList();
        prompts.add(messages);
        Message last = messages.get(messages.size() - 1);
        AssistantMessage answer;
        String text = last.getText() == null ? "" : last.getText();
        Matcher weather = WEATHER.matcher(text);
        Matcher booking = BOOKING.matcher(text);
        if (last instanceof ToolResponseMessage response) {
            var first = response.getResponses().get(0);
            answer = new AssistantMessage(
                    first.name().equals("weather")
                            ? "The weather in " + cityOf(messages, first.id()) + ": " + first.responseData()
                            : "Done: " + first.responseData());
        } else if (last.getMessageType() == MessageType.USER && weather.find()) {
            answer = toolCall(messages, "weather", "{\"city\":\"" + weather.group(1) + "\"}");
        } else if (last.getMessageType() == MessageType.USER && booking.find()) {
            answer = toolCall(messages, "book", "{\"name\":\"" + booking.group(1) + "\"}");
        } else {
            Message first = messages.stream()
                    .filter(m -> m.getMessageType() != MessageType.SYSTEM)
                    .findFirst()
                    .orElse(last);
            answer = new AssistantMessage("You said: " + last.getText() + ". I see " + messages.size()
                    + " messages, the first: " + first.getText());
        }
        return new ChatResponse(List.of(new Generation(answer)));
    }

    @Override
    public ChatOptions getOptions() {
        return DefaultToolCallingChatOptions.builder().build();
    }

    private static AssistantMessage toolCall(List<Message> messages, String tool, String arguments) {
        long earlierCalls = messages.stream()
                .filter(m -> m instanceof AssistantMessage a && a.hasToolCalls())
                .count();
        String callId = "call-" + (earlierCalls + 1);
        return AssistantMessage.builder()
                .content("")
                .properties(Map.of("finishReason", "TOOL_CALLS"))
                .toolCalls(List.of(new AssistantMessage.ToolCall(callId, "function", tool, arguments)))
                .build();
    }

    /** Every prompt received, oldest first, without the empty system message Spring AI adds in tool loops. */
    List<List<Message>> prompts() {
        return List.copyOf(prompts);
    }

    /** The prompt of the last call. */
    List<Message> lastPrompt() {
        return prompts.get(prompts.size() - 1);
    }

    private static String cityOf(List<Message> messages, String callId) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof AssistantMessage assistant) {
                for (var call : assistant.getToolCalls()) {
                    if (call.id().equals(callId)) {
                        Matcher city = Pattern.compile("\"city\":\"(\\p{L}+)\"").matcher(call.arguments());
                        return city.find() ? city.group(1) : "?";
                    }
                }
            }
        }
        return "an unknown city (the call " + callId + " is not in the prompt)";
    }
}
