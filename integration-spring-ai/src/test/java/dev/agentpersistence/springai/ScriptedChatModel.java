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
 * <ul>
 *   <li>The last message is a user message asking for "the weather in X": it answers with a call of the
 *       {@code weather} tool for X, with call id {@code call-n} for the n-th tool-calling answer in the
 *       prompt (the model keeps no state between calls).</li>
 *   <li>The last message is a tool response: it answers "The weather in X: <response>".</li>
 *   <li>Otherwise it answers "You said: <text>. I see n messages, the first: <text of the first
 *       non-system message>", which shows what memory handed it.</li>
 * </ul>
 * Every prompt it receives is kept, for assertions on what the model saw.
 */
final class ScriptedChatModel implements ChatModel {
    private static final Pattern WEATHER = Pattern.compile("weather in (\\p{L}+)");

    private final List<List<Message>> prompts = Collections.synchronizedList(new ArrayList<>());

    @Override
    public ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions().stream()
                .filter(m -> !(m.getMessageType() == MessageType.SYSTEM && m.getText().isEmpty())).toList();
        prompts.add(messages);
        Message last = messages.get(messages.size() - 1);
        AssistantMessage answer;
        Matcher weather = WEATHER.matcher(last.getText() == null ? "" : last.getText());
        if (last instanceof ToolResponseMessage response) {
            var first = response.getResponses().get(0);
            answer = new AssistantMessage("The weather in " + cityOf(messages, first.id()) + ": " + first.responseData());
        } else if (last.getMessageType() == MessageType.USER && weather.find()) {
            long earlierCalls = messages.stream()
                    .filter(m -> m instanceof AssistantMessage a && a.hasToolCalls()).count();
            String callId = "call-" + (earlierCalls + 1);
            answer = AssistantMessage.builder().content("").properties(Map.of("finishReason", "TOOL_CALLS"))
                    .toolCalls(List.of(new AssistantMessage.ToolCall(callId, "function", "weather",
                            "{\"city\":\"" + weather.group(1) + "\"}"))).build();
        } else {
            Message first = messages.stream().filter(m -> m.getMessageType() != MessageType.SYSTEM).findFirst()
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
