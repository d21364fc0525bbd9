package dev.agentpersistence.benchmarks.chatmemory;

import dev.agentpersistence.benchmarks.fixture.TextSource;
import java.util.Arrays;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * The conversation both repositories get: {@code turns} turns, each a user message of 200 characters and an assistant
 * answer of 800, added through {@link MessageWindowChatMemory} exactly as Spring AI's {@code MessageChatMemoryAdvisor}
 * adds them (one {@code add} before the model call, one after), so each turn is two reads and two {@code saveAll}s. The
 * text comes from a seeded {@link TextSource}: the same for both stores.
 *
 * @param turns the number of turns
 * @param window the window of {@code MessageWindowChatMemory}; {@code 0} keeps the whole conversation
 */
record ChatMemoryWorkload(int turns, int window) {

    /** What one run measured. */
    record Result(long bytesWritten, long writeStatements, long[] turnNanos, long[] turnBytes) {
        /** Mean of {@code values} over turns {@code from} (inclusive) to {@code to} (exclusive). */
        static double mean(long[] values, int from, int to) {
            return Arrays.stream(values, from, to).average().orElse(0);
        }

        /** Median of {@code values} over turns {@code from} (inclusive) to {@code to} (exclusive). */
        static double median(long[] values, int from, int to) {
            long[] sorted = Arrays.stream(values, from, to).sorted().toArray();
            int n = sorted.length;
            return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        }
    }

    /** Runs the conversation {@code conversationId} on {@code store}, counting only its own turns. */
    Result run(MeasuredChatMemory store, String conversationId) {
        ChatMemory memory = MessageWindowChatMemory.builder()
                .chatMemoryRepository(store.repository())
                .maxMessages(window == 0 ? Integer.MAX_VALUE : window)
                .build();
        var text = new TextSource(42);
        long[] nanos = new long[turns];
        long[] bytes = new long[turns];
        long bytesBefore = store.counter().bytes();
        long statementsBefore = store.counter().statements();
        for (int turn = 0; turn < turns; turn++) {
            var question = new UserMessage(text.next(200));
            var answer = new AssistantMessage(text.next(800));
            long turnBytes = store.counter().bytes();
            long start = System.nanoTime();
            memory.add(conversationId, question);
            memory.add(conversationId, answer);
            nanos[turn] = System.nanoTime() - start;
            bytes[turn] = store.counter().bytes() - turnBytes;
        }
        return new Result(
                store.counter().bytes() - bytesBefore, store.counter().statements() - statementsBefore, nanos, bytes);
    }
}
