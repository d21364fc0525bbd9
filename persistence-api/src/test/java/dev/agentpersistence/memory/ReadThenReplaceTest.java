package dev.agentpersistence.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.storage.StorageShell;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The base of a replace is remembered per conversation and shared by threads: a list built from a read in one thread
 * and saved from another is merged with what was written in between, or refused when its base was rolled back.
 */
class ReadThenReplaceTest {
    private final StorageShell storage = HeapStorage.provider();
    private final ReadThenReplace tracker = ReadThenReplace.over(ConversationStore.of(storage));
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final ExecutorService writer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        reader.shutdownNow();
        writer.shutdownNow();
        assertThat(reader.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        assertThat(writer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    private <T> T on(ExecutorService thread, Callable<T> work) throws Exception {
        try {
            return thread.submit(work).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private static List<Message> plus(List<Message> window, Message message) {
        var list = new ArrayList<>(window);
        list.add(message);
        return list;
    }

    private List<String> window() {
        return tracker.store().load("c").messages().stream()
                .map(Message::content)
                .toList();
    }

    @Test
    void aListSavedFromAnotherThreadAfterThatThreadWroteIsMergedWithItsWrite() throws Exception {
        tracker.store().append("c", List.of(Message.system("s"), Message.user("u1")));
        List<Message> built = on(reader, () -> plus(tracker.read("c"), Message.user("from reader")));
        on(writer, () -> tracker.replace("c", plus(tracker.read("c"), Message.user("from writer"))));

        on(writer, () -> tracker.replace("c", built)); // the reader's list, saved by the writer's thread

        assertThat(window()).containsExactly("s", "u1", "from writer", "from reader");
    }

    @Test
    void aListSavedFromAThreadThatNeverReadIsMergedWithWhatWasWrittenSinceItsRead() throws Exception {
        tracker.store().append("c", List.of(Message.system("s"), Message.user("u1")));
        List<Message> built = on(reader, () -> plus(tracker.read("c"), Message.user("from reader")));
        on(reader, () -> tracker.replace("c", plus(tracker.read("c"), Message.user("second turn"))));

        on(writer, () -> tracker.replace("c", built));

        assertThat(window()).containsExactly("s", "u1", "second turn", "from reader");
    }

    @Test
    void aListBuiltFromAReadThatAnotherThreadRolledBackIsRefusedAndWritesNothing() throws Exception {
        var first = tracker.store().append("c", List.of(Message.system("s"), Message.user("u1")));
        tracker.store().append("c", Message.assistant("a1"));
        List<Message> built = on(reader, () -> plus(tracker.read("c"), Message.user("from reader")));
        on(
                writer,
                () -> tracker.store()
                        .rollbackTo("c", first.checkpoint().orElseThrow().checkpointId(), RollbackToolRegistry.EMPTY));
        long versions = storage.getCheckpoints(tracker.store().agentId("c")).size();

        assertThatThrownBy(() -> on(writer, () -> tracker.replace("c", built)))
                .isInstanceOf(ConversationConflictException.class)
                .hasMessageContaining("rolled the conversation back");
        assertThat(window()).containsExactly("s", "u1");
        assertThat(storage.getCheckpoints(tracker.store().agentId("c"))).hasSize((int) versions);
    }

    @Test
    void aWindowThatEvictsItsOldestMessagesIsTakenAsBuiltFromTheReadItEvictedFrom() {
        var store = tracker.store();
        var read = store.append("w", List.of(Message.system("s"), Message.user("u1"), Message.assistant("a1")));
        var evicting = List.of(read.messages().get(0), read.messages().get(2), Message.user("u2"));
        var droppingTheNewest = List.of(read.messages().get(0), read.messages().get(1), Message.user("u2"));

        assertThat(ReadThenReplace.builtFrom(read, evicting)).isTrue();
        assertThat(ReadThenReplace.builtFrom(read, droppingTheNewest)).isFalse();
        assertThat(ReadThenReplace.builtFrom(read, List.of(Message.system("other"))))
                .isTrue();
    }
}
