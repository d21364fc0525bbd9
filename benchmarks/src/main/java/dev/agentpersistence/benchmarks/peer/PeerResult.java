package dev.agentpersistence.benchmarks.peer;

import java.util.Arrays;

/**
 * What the peer workload measured for one store.
 *
 * @param store the store's id, such as {@code koog-file}
 * @param note how the store saves (durability, layout)
 * @param steps agent steps, one checkpoint each
 * @param saveNanos the time of each save, in step order
 * @param latestCalls how many times the latest checkpoint was read
 * @param latestNanos the time of all those reads together
 * @param listNanos the time of one list of every checkpoint
 * @param bytesStored bytes occupied after the run, or -1
 */
public record PeerResult(
        String store,
        String note,
        int steps,
        long[] saveNanos,
        int latestCalls,
        long latestNanos,
        long listNanos,
        long bytesStored) {

    /** All saves together, in milliseconds. */
    public double totalSaveMillis() {
        return Arrays.stream(saveNanos).sum() / 1e6;
    }

    /** Mean time of the first {@code n} saves, in milliseconds. */
    public double firstMillis(int n) {
        return Arrays.stream(saveNanos, 0, Math.min(n, saveNanos.length))
                        .average()
                        .orElse(0)
                / 1e6;
    }

    /** Mean time of the last {@code n} saves, in milliseconds. */
    public double lastMillis(int n) {
        return Arrays.stream(saveNanos, Math.max(0, saveNanos.length - n), saveNanos.length)
                        .average()
                        .orElse(0)
                / 1e6;
    }

    /** How much slower the last 20 saves were than the first 20 (1 = flat). */
    public double growth() {
        return lastMillis(20) / firstMillis(20);
    }

    /** Mean time of one read of the latest checkpoint, in microseconds. */
    public double latestMicros() {
        return latestNanos / 1e3 / latestCalls;
    }

    /** The list of every checkpoint, in milliseconds. */
    public double listMillis() {
        return listNanos / 1e6;
    }
}
