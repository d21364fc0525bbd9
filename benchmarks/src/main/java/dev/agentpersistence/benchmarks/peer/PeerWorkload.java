package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.benchmarks.fixture.TextSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed peer workload: one agent runs {@code steps} steps; each step adds a user message and an assistant message
 * of {@value #MESSAGE_CHARS} characters to the history and saves one checkpoint holding the whole history. Then the
 * latest checkpoint is read {@code latestCalls} times and every checkpoint is listed once. The texts are the same for
 * every store.
 */
public final class PeerWorkload {
    /** Characters per message (about 1 KiB). */
    public static final int MESSAGE_CHARS = 1024;

    private PeerWorkload() {}

    /** Runs the workload on {@code store} and checks what it reads back. */
    public static PeerResult run(String id, PeerStore store, int steps, int latestCalls) throws Exception {
        return run(id, store, steps, latestCalls, Long.MAX_VALUE);
    }

    /**
     * As {@link #run(String, PeerStore, int, int)}, but stops reading the latest checkpoint after {@code latestNanos}
     * even if fewer than {@code latestCalls} reads were made (for warm-up runs: many reads of a fast store, few of a
     * slow one).
     */
    public static PeerResult run(String id, PeerStore store, int steps, int latestCalls, long latestNanos)
            throws Exception {
        List<Turn> history = conversation(steps);
        long[] saves = new long[steps];
        for (int step = 0; step < steps; step++) {
            long started = System.nanoTime();
            store.save(step, history.subList(0, 2 * step + 2));
            saves[step] = System.nanoTime() - started;
        }
        long started = System.nanoTime();
        int size = 0;
        int calls = 0;
        while (calls < latestCalls && (calls == 0 || System.nanoTime() - started < latestNanos)) {
            size = store.latestHistorySize();
            calls++;
        }
        long latest = System.nanoTime() - started;
        require(
                size == history.size(),
                id + ": the latest checkpoint holds " + size + " messages, not " + history.size());
        started = System.nanoTime();
        int listed = store.listSize();
        long list = System.nanoTime() - started;
        require(listed == steps, id + ": listed " + listed + " checkpoints, not " + steps);
        return new PeerResult(id, store.note(), steps, saves, calls, latest, list, store.bytesStored());
    }

    /**
     * The conversation of {@code steps} steps, the same on every call: per step a user message and an assistant message
     * of {@value #MESSAGE_CHARS} characters; the history saved after step {@code s} is its first {@code 2 * s + 2}.
     */
    public static List<Turn> conversation(int steps) {
        var text = new TextSource(20_260_101L);
        var turns = new ArrayList<Turn>(2 * steps);
        for (int step = 0; step < steps; step++) {
            turns.add(new Turn(true, text.next(MESSAGE_CHARS)));
            turns.add(new Turn(false, text.next(MESSAGE_CHARS)));
        }
        return List.copyOf(turns);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }
}
