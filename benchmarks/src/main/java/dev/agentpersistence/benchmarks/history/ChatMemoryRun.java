package dev.agentpersistence.benchmarks.history;

import dev.agentpersistence.benchmarks.fixture.TextSource;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A chat of {@code turns} turns through LangChain4j's {@code MessageWindowChatMemory} over a {@link ChatMemoryStore}: a
 * system message, then per turn a user message and an answer of {@code turnBytes / 2} characters each; every tenth turn
 * the answer is a tool call, its result and then the answer. Times every turn (the memory's reads and updates) and,
 * apart, the store's saves ({@code updateMessages}) in it, and counts, for every update, the bytes of the memory's
 * whole list as LangChain4j's own JSON: what a store writes that rewrites the list on each update.
 */
public final class ChatMemoryRun {
    /** The memory id of the chat. */
    public static final String MEMORY_ID = "chat-benchmark";

    private final int turns;
    private final int turnBytes;
    private final int windowMessages;

    public ChatMemoryRun(int turns, int turnBytes, int windowMessages) {
        this.turns = turns;
        this.turnBytes = turnBytes;
        this.windowMessages = windowMessages;
    }

    /**
     * What one run measured.
     *
     * @param turnNanos time of each turn
     * @param saveNanos time of the store's saves in each turn
     * @param listRewriteBytes the bytes a store rewriting the whole list on each update would write in total
     * @param finalWindowBytes the bytes of the final window as LangChain4j JSON
     * @param updates how many times the memory updated the store
     */
    public record Outcome(
            long[] turnNanos, long[] saveNanos, long listRewriteBytes, long finalWindowBytes, long updates) {
        /** Median of {@code nanos[from, to)} in milliseconds (means follow the outliers of a loaded machine). */
        public static double medianMillis(long[] nanos, int from, int to) {
            long[] part = java.util.Arrays.copyOfRange(nanos, from, to);
            java.util.Arrays.sort(part);
            int middle = part.length / 2;
            double median = part.length % 2 == 1 ? part[middle] : (part[middle - 1] + part[middle]) / 2.0;
            return median / 1e6;
        }
    }

    public Outcome run(ChatMemoryStore store) {
        var rewrite = new AtomicLong();
        var updates = new AtomicLong();
        var saving = new AtomicLong();
        ChatMemoryStore counting = new ChatMemoryStore() {
            @Override
            public List<ChatMessage> getMessages(Object memoryId) {
                return store.getMessages(memoryId);
            }

            @Override
            public void updateMessages(Object memoryId, List<ChatMessage> messages) {
                rewrite.addAndGet(jsonBytes(messages));
                updates.incrementAndGet();
                long start = System.nanoTime();
                store.updateMessages(memoryId, messages);
                saving.addAndGet(System.nanoTime() - start);
            }

            @Override
            public void deleteMessages(Object memoryId) {
                store.deleteMessages(memoryId);
            }
        };
        var memory = MessageWindowChatMemory.builder()
                .id(MEMORY_ID)
                .maxMessages(windowMessages)
                .chatMemoryStore(counting)
                .build();
        var text = new TextSource(42);
        long[] nanos = new long[turns];
        long[] saves = new long[turns];
        memory.add(SystemMessage.from("You are a support assistant. Answer briefly and cite the order."));
        for (int turn = 0; turn < turns; turn++) {
            String question = text.next(turnBytes / 2);
            String answer = text.next(turnBytes / 2);
            long start = System.nanoTime();
            long savedBefore = saving.get();
            memory.add(UserMessage.from(question));
            if (turn % 10 == 9) {
                var request = ToolExecutionRequest.builder()
                        .id("call-" + turn)
                        .name("lookupOrder")
                        .arguments("{\"order\":\"" + turn + "\"}")
                        .build();
                memory.add(AiMessage.from(request));
                memory.add(ToolExecutionResultMessage.from(request, "order " + turn + " shipped"));
            }
            memory.add(AiMessage.from(answer));
            nanos[turn] = System.nanoTime() - start;
            saves[turn] = saving.get() - savedBefore;
        }
        return new Outcome(nanos, saves, rewrite.get(), jsonBytes(store.getMessages(MEMORY_ID)), updates.get());
    }

    private static long jsonBytes(List<ChatMessage> messages) {
        return ChatMessageSerializer.messagesToJson(messages).getBytes(StandardCharsets.UTF_8).length;
    }
}
