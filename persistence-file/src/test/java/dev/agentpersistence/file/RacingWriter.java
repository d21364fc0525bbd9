package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A writer for the cross-process race: opens the store, signals it is ready, reads the start time from the start
 * signal, then saves {@code count} versions and prints {@code won <v>} or {@code lost <v>} for each. Even versions use
 * an id shared by every writer; odd ones an id of their own. Every writer starts version {@code v} at the same
 * wall-clock instant ({@code start + v * SLOT_MILLIS}, plus a random sub-millisecond jitter), so each version is really
 * contended and either writer may win it. Arguments: root, writer name, count, ready file, start signal, and the form
 * new agents get ({@code journal} or {@code files}; files when absent).
 */
public final class RacingWriter {
    static final String AGENT = "raced";
    static final long SLOT_MILLIS = 20;

    private RacingWriter() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String writer = args[1];
        int count = Integer.parseInt(args[2]);
        Path ready = Path.of(args[3]);
        Path go = Path.of(args[4]);
        boolean journal = args.length > 5 && args[5].equals("journal");
        try (var provider = open(root, journal)) {
            warmUp(provider, writer);
            Files.writeString(ready, writer);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(go) || Files.size(go) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no start signal");
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
            long start = Long.parseLong(Files.readString(go).trim());
            race(provider, writer, count, start, System.out::println);
        }
    }

    /**
     * A provider for racing, keeping new agents as a journal or as one file per checkpoint. Exclusivity rests on atomic
     * links and the agent's lock, not on fsync; without fsync saves are short enough for the slots.
     */
    static StorageShell open(Path root, boolean journal) {
        return FileStorage.builder(FilePerCheckpoint.config(root)
                        .journal(journal)
                        .fsync(false)
                        .build())
                .build();
    }

    /**
     * Runs the save and conflict paths a few times on a separate agent, so that class loading and compilation do not
     * make one writer start the race far behind.
     */
    static void warmUp(StorageShell provider, String writer) {
        String agent = "warm-up-" + writer;
        for (int version = 0; version < 40; version++) {
            provider.saveCheckpoint(agent, TestCheckpoints.checkpoint(agent, version));
            try {
                provider.saveCheckpoint(agent, TestCheckpoints.checkpoint(agent, version, "other", writer));
            } catch (CheckpointConflictException expected) {
                // the conflict path is part of the race too
            }
        }
        provider.getCheckpoints(agent);
        provider.deleteCheckpoints(agent);
    }

    /** Saves the versions from {@code startMillis} (epoch) on; reports each outcome to {@code out}. */
    static void race(StorageShell provider, String writer, int count, long startMillis, Consumer<String> out) {
        var random = new Random();
        for (int version = 0; version < count; version++) {
            long wait = startMillis + version * SLOT_MILLIS - System.currentTimeMillis();
            if (wait > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(wait));
            }
            LockSupport.parkNanos(random.nextInt(500_000));
            try {
                provider.saveCheckpoint(AGENT, TestCheckpoints.checkpoint(AGENT, version, id(version, writer), writer));
                out.accept("won " + version);
            } catch (CheckpointConflictException e) {
                out.accept("lost " + version);
            }
        }
    }

    static String id(int version, String writer) {
        return version % 2 == 0 ? "shared-" + version : writer + "-" + version;
    }
}
