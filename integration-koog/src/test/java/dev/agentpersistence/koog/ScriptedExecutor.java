package dev.agentpersistence.koog;

import ai.koog.prompt.Prompt;
import ai.koog.prompt.executor.clients.LLMClient;
import ai.koog.prompt.executor.model.PromptExecutor;
import ai.koog.prompt.llm.LLMProvider;
import ai.koog.prompt.llm.LLModel;
import ai.koog.prompt.message.Message;
import ai.koog.prompt.message.ResponseMetaInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import kotlin.coroutines.Continuation;

/**
 * An LLM client without a model: it answers every request with {@code "<last user text> -> done"}, so a run's
 * transcript is known in advance, and counts the requests per last user text. Agents get it behind Koog's own prompt
 * executor ({@link #executor()}).
 */
final class ScriptedExecutor extends LLMClient {
    static final LLModel MODEL = new LLModel(LLMProvider.OpenAI, "scripted-model");

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    /*
     * Koog marks its suspend methods synthetic, hiding them from Java; these two have their JVM
     * signatures, so they implement them. Both answer at once, without suspending.
     */
    public Object execute(Prompt prompt, LLModel model, List<?> tools, Continuation<?> continuation) {
        String asked = lastUserText(prompt);
        requests.computeIfAbsent(asked, k -> new AtomicInteger()).incrementAndGet();
        kotlin.time.Instant now = kotlin.time.Instant.Companion.fromEpochMilliseconds(System.currentTimeMillis());
        return new Message.Assistant(asked + " -> done", new ResponseMetaInfo(now, 12, 5, 7, model.getId(), null));
    }

    /** Koog's prompt executor, routing the scripted model's requests to this client. */
    PromptExecutor executor() {
        return PromptExecutor.builder().addClient(this).build();
    }

    @Override
    public LLMProvider llmProvider() {
        return LLMProvider.OpenAI;
    }

    @Override
    public void close() {
        // nothing to release
    }

    public Object moderate(Prompt prompt, LLModel model, Continuation<?> continuation) {
        throw new UnsupportedOperationException("the scripted executor does not moderate");
    }

    /** How often a request whose last user message was {@code text} was answered. */
    int requests(String text) {
        AtomicInteger count = requests.get(text);
        return count == null ? 0 : count.get();
    }

    private static String lastUserText(Prompt prompt) {
        List<Message> messages = prompt.getMessages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof Message.User user) {
                return user.textContent();
            }
        }
        return "";
    }
}
