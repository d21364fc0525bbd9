package dev.agentpersistence.adk;

import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A model without network: it answers each request with {@code "reply <n>: <last user text>"}, {@code n} counting the
 * user turns it was shown, and records the texts of every request's contents.
 */
final class ScriptedLlm extends BaseLlm {
    private final List<List<String>> requests = new CopyOnWriteArrayList<>();

    ScriptedLlm() {
        super("scripted-model");
    }

    /** The texts of each request's contents, as {@code role: text}. */
    List<List<String>> requests() {
        return requests;
    }

    /** What the model answers to {@code userText} when it has seen {@code userTurns} user turns in all. */
    static String reply(int userTurns, String userText) {
        return "reply " + userTurns + ": " + userText;
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
        List<String> texts = request.contents().stream()
                .map(content -> content.role().orElse("?") + ": " + text(content))
                .toList();
        requests.add(texts);
        var userTexts = request.contents().stream()
                .filter(content -> content.role().orElse("").equals("user"))
                .map(ScriptedLlm::text)
                .toList();
        String answer = reply(userTexts.size(), userTexts.isEmpty() ? "" : userTexts.get(userTexts.size() - 1));
        return Flowable.just(LlmResponse.builder()
                .content(Content.builder()
                        .role("model")
                        .parts(Part.fromText(answer))
                        .build())
                .turnComplete(true)
                .build());
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
        throw new UnsupportedOperationException("the scripted model has no live connection");
    }

    private static String text(Content content) {
        return content.parts().orElse(List.of()).stream()
                .map(part -> part.text().orElse(""))
                .collect(Collectors.joining());
    }
}
