package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.benchmarks.history.GrowthResults;
import java.util.Locale;
import java.util.Objects;

/**
 * One store and workload of {@link StorageFloorMain}.
 *
 * @param store ours on a backend, or a peer
 * @param workload {@code peer} or {@code chat}
 * @param timed the workload's timings and checkpoints
 * @param bytesHeld what the store holds after close and compaction, or -1 where it is not measured
 * @param floor the workload's floor
 * @param roundTrips the backend calls of a cold read of a 1,000-message history, or empty where not counted
 */
record FloorRow(
        String store,
        String workload,
        FloorWorkloads.Timed timed,
        long bytesHeld,
        long emptyStoreBytes,
        StorageFloor floor,
        String roundTrips) {

    FloorRow {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(timed, "timed");
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(roundTrips, "roundTrips");
    }

    /** The table's header. */
    static String header() {
        return "| store | workload | checkpoints | bytes held | floor (compressed JSON + " + StorageFloor.PER_CHECKPOINT
                + " × checkpoints) | held / floor | of which an empty store | (held − empty store) / floor"
                + " | save p50 (µs) | latest p50 (µs) | backend calls to read a 1,000-message history (cold) |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n";
    }

    /** The row as a table line. */
    String line() {
        long floorBytes = floor.bytes(timed.checkpoints());
        return String.format(
                Locale.ROOT,
                "| %s | %s | %,d | %s | %s | %s | %s | %s | %,.1f | %,.1f | %s |",
                store,
                workload,
                timed.checkpoints(),
                GrowthResults.bytes(bytesHeld),
                floor.describe(timed.checkpoints()),
                ratio(bytesHeld, floorBytes),
                emptyStoreBytes < 0 ? "–" : GrowthResults.bytes(emptyStoreBytes),
                emptyStoreBytes < 0 || bytesHeld < 0 ? "–" : ratio(bytesHeld - emptyStoreBytes, floorBytes),
                FloorWorkloads.medianMicros(timed.saveNanos()),
                FloorWorkloads.medianMicros(timed.latestNanos()),
                roundTrips.isEmpty() ? "–" : roundTrips);
    }

    private static String ratio(long bytes, long floorBytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", (double) bytes / floorBytes);
    }
}
