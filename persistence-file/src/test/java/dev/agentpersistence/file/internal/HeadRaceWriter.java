package dev.agentpersistence.file.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The second process of {@link HeadRaceTest}: opens the store, signals it is ready, waits for the start signal, then
 * saves its share of the versions ({@link HeadRaceTest#share}) and prints {@code saved <v>} after each. Arguments:
 * root, agent id, writer index, writers, versions, ready file, start file.
 */
public final class HeadRaceWriter {
    private HeadRaceWriter() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String agentId = args[1];
        int index = Integer.parseInt(args[2]);
        int writers = Integer.parseInt(args[3]);
        int versions = Integer.parseInt(args[4]);
        Path ready = Path.of(args[5]);
        Path go = Path.of(args[6]);
        try (var provider = HeadCheckpoints.open(root)) {
            provider.saveCheckpoint("warm-up-" + index, HeadCheckpoints.checkpoint("warm-up-" + index, 0, "child"));
            provider.getLatestCheckpoint("warm-up-" + index);
            Files.writeString(ready, "ready");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(go)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no start signal");
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
            for (long version : HeadRaceTest.share(index, writers, versions)) {
                provider.saveCheckpoint(agentId, HeadCheckpoints.checkpoint(agentId, version, "child"));
                System.out.println("saved " + version);
            }
        }
    }
}
