package dev.agentpersistence.benchmarks.peer;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the peer workload on one store in this JVM (the launcher starts one JVM per store): {@code <store> <steps>
 * <latestCalls> <warmupSteps> <resultFile>}. With warm-up steps, a shorter run on separate storage comes first (its
 * reads of the latest checkpoint capped at three seconds), so that the measured run is not the JVM's first.
 */
public final class PeerWorkloadMain {
    /** Reads of the latest checkpoint in the warm-up run: enough for the JIT to compile a fast store's read path... */
    private static final int WARMUP_LATEST_CALLS = 20_000;
    /** ...but no longer than this for a slow one. */
    private static final long WARMUP_LATEST_NANOS = 3_000_000_000L;

    private PeerWorkloadMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: PeerWorkloadMain <store> <steps> <latestCalls> <warmupSteps> <resultFile>");
            System.exit(2);
        }
        String id = args[0];
        int steps = Integer.parseInt(args[1]);
        int latestCalls = Integer.parseInt(args[2]);
        int warmupSteps = Integer.parseInt(args[3]);
        Path resultFile = Path.of(args[4]);
        BenchSettings settings = BenchSettings.fromSystemProperties();
        if (warmupSteps > 0) {
            try (PeerStore store = PeerStores.open(id, settings, true)) {
                PeerWorkload.run(id, store, warmupSteps, WARMUP_LATEST_CALLS, WARMUP_LATEST_NANOS);
            }
        }
        PeerResult result;
        try (PeerStore store = PeerStores.open(id, settings, false)) {
            result = PeerWorkload.run(id, store, steps, latestCalls);
        }
        Files.write(resultFile, new ObjectMapper().writeValueAsBytes(result));
        System.out.printf(
                "%-22s saves %9.1f ms (last20/first20 %6.2f)  latest %10.1f us  list %8.1f ms  stored %,d bytes%n",
                id,
                result.totalSaveMillis(),
                result.growth(),
                result.latestMicros(),
                result.listMillis(),
                result.bytesStored());
    }
}
