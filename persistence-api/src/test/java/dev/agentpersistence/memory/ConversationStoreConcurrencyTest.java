package dev.agentpersistence.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** 8 threads writing one conversation: no message lost, each thread's messages in the order it wrote them. */
class ConversationStoreConcurrencyTest {
    private static final int THREADS = 8;
    private static final int MESSAGES_PER_THREAD = 25;

    private final PersistenceStorageProvider<CheckpointFilter> storage = HeapStorage.provider();
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void appendsThroughOneStore() throws Exception {
        var store = ConversationStore.of(storage);
        run(thread -> store, (store1, thread, i) -> store1.append("shared", Message.user(thread + ":" + i)));
        assertNothingLostAndOrderKept(
                ConversationStore.of(storage).load("shared").messages());
    }

    @Test
    void appendsThroughOneStorePerThreadLikeSeparateProcesses() throws Exception {
        run(
                thread -> ConversationStore.of(storage),
                (store, thread, i) -> store.append("shared", Message.user(thread + ":" + i)));
        assertNothingLostAndOrderKept(
                ConversationStore.of(storage).load("shared").messages());
    }

    @Test
    void frameworkStyleReadModifyReplaceThroughOneStorePerThread() throws Exception {
        run(thread -> ConversationStore.of(storage), (store, thread, i) -> {
            var read = store.load("shared");
            var list = new ArrayList<>(read.messages());
            list.add(Message.user(thread + ":" + i));
            store.replace(read, list);
        });
        var conversation = ConversationStore.of(storage).load("shared");
        assertNothingLostAndOrderKept(conversation.messages());
        assertThat(conversation.history()).hasSize(THREADS * MESSAGES_PER_THREAD);
    }

    @Test
    void frameworkStyleReadThenReplaceInEachThreadThroughOneTrackerPerThread() throws Exception {
        run(thread -> ConversationStore.of(storage), (store, thread, i) -> {
            var tracker = trackers.computeIfAbsent(store, ReadThenReplace::over);
            var list = new ArrayList<>(tracker.read("shared"));
            list.add(Message.user(thread + ":" + i));
            tracker.replace("shared", list);
        });
        assertNothingLostAndOrderKept(
                ConversationStore.of(storage).load("shared").messages());
    }

    private final java.util.Map<ConversationStore, ReadThenReplace> trackers =
            new java.util.concurrent.ConcurrentHashMap<>();

    private interface Step {
        void write(ConversationStore store, int thread, int index);
    }

    private void run(IntFunction<ConversationStore> stores, Step step) throws Exception {
        var start = new CountDownLatch(1);
        var futures = new ArrayList<Future<?>>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            var store = stores.apply(thread);
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < MESSAGES_PER_THREAD; i++) {
                    step.write(store, thread, i);
                }
                return null;
            }));
        }
        start.countDown();
        for (var future : futures) {
            future.get(60, TimeUnit.SECONDS);
        }
    }

    private static void assertNothingLostAndOrderKept(List<Message> messages) {
        assertThat(messages).hasSize(THREADS * MESSAGES_PER_THREAD);
        var byThread = messages.stream()
                .map(Message::content)
                .collect(Collectors.groupingBy(c -> c.substring(0, c.indexOf(':')), Collectors.toList()));
        assertThat(byThread).hasSize(THREADS);
        byThread.forEach((thread, contents) -> {
            var expected = new ArrayList<String>();
            for (int i = 0; i < MESSAGES_PER_THREAD; i++) {
                expected.add(thread + ":" + i);
            }
            assertThat(contents).as("messages of thread %s", thread).containsExactlyElementsOf(expected);
        });
    }
}
