package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.benchmarks.history.ChatMemoryRun;
import dev.agentpersistence.benchmarks.peer.PeerStore;
import dev.agentpersistence.benchmarks.peer.PeerWorkload;
import dev.agentpersistence.benchmarks.peer.Turn;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * The two workloads of {@link StorageFloorMain}, timed per save and per read of the latest state: the peer workload
 * ({@link PeerWorkload#conversation}, one checkpoint per step) on a {@link PeerStore}, and the LangChain4j chat of
 * {@link ChatMemoryRun} on a {@link ChatMemoryStore}.
 */
final class FloorWorkloads {
    /** Characters per chat turn, as in {@code ChatMemoryGrowthMain}. */
    static final int TURN_BYTES = 1024;
    /** Messages of the chat memory's window, as in {@code ChatMemoryGrowthMain}. */
    static final int WINDOW = 20;

    private FloorWorkloads() {}

    /**
     * What a workload measured on one store.
     *
     * @param saveNanos the time of each save, in order
     * @param latestNanos the time of each read of the latest state after the run
     * @param checkpoints the checkpoints the store holds at the end
     */
    record Timed(long[] saveNanos, long[] latestNanos, long checkpoints) {}

    /** The peer workload of {@code steps} steps, then {@code latestCalls} reads of the latest checkpoint. */
    static Timed peer(PeerStore store, int steps, int latestCalls) throws Exception {
        Objects.requireNonNull(store, "store");
        List<Turn> history = PeerWorkload.conversation(steps);
        long[] saves = new long[steps];
        for (int step = 0; step < steps; step++) {
            long started = System.nanoTime();
            store.save(step, history.subList(0, 2 * step + 2));
            saves[step] = System.nanoTime() - started;
        }
        long[] latest = time(latestCalls, () -> {
            int size = store.latestHistorySize();
            if (size != history.size()) {
                throw new IllegalStateException(
                        "the latest checkpoint holds " + size + " messages, not " + history.size());
            }
            return size;
        });
        return new Timed(saves, latest, store.listSize());
    }

    /**
     * The chat of {@code turns} turns on {@code store}, each update of the memory timed as a save, then
     * {@code latestCalls} calls of {@code latest}.
     *
     * @param checkpoints how many checkpoints the store holds after the chat
     */
    static Timed chat(ChatMemoryStore store, int turns, int latestCalls, Callable<?> latest, LongSupplier checkpoints)
            throws Exception {
        Objects.requireNonNull(store, "store");
        var saves = new ArrayList<Long>();
        ChatMemoryStore timed = new ChatMemoryStore() {
            @Override
            public List<ChatMessage> getMessages(Object memoryId) {
                return store.getMessages(memoryId);
            }

            @Override
            public void updateMessages(Object memoryId, List<ChatMessage> messages) {
                long started = System.nanoTime();
                store.updateMessages(memoryId, messages);
                saves.add(System.nanoTime() - started);
            }

            @Override
            public void deleteMessages(Object memoryId) {
                store.deleteMessages(memoryId);
            }
        };
        new ChatMemoryRun(turns, TURN_BYTES, WINDOW).run(timed);
        long[] latestNanos = time(latestCalls, latest);
        return new Timed(saves.stream().mapToLong(Long::longValue).toArray(), latestNanos, checkpoints.getAsLong());
    }

    /** Median of {@code nanos} in microseconds. */
    static double medianMicros(long[] nanos) {
        return ChatMemoryRun.Outcome.medianMillis(nanos, 0, nanos.length) * 1000;
    }

    private static long[] time(int calls, Callable<?> call) throws Exception {
        long[] nanos = new long[calls];
        for (int i = 0; i < calls; i++) {
            long started = System.nanoTime();
            call.call();
            nanos[i] = System.nanoTime() - started;
        }
        return nanos;
    }
}
