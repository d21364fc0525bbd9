package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The peer workload's saves repeated in one JVM, to separate what a store costs once the JIT has compiled it from what
 * a fresh JVM pays (the launcher's peer runs start one JVM per store). Each repetition runs the 200 steps on fresh
 * storage, then reads the latest checkpoint {@value #LATEST_CALLS} times. Arguments: the repetitions, then store ids
 * ({@link PeerStores#all()}); prints each store's 200-save time and mean latest time of the last {@value #REPORTED}
 * repetitions. Servers and directories as for the launcher; data is removed.
 */
public final class WarmPeerMain {
    private static final int STEPS = 200;
    private static final int REPORTED = 5;
    private static final int LATEST_CALLS = 10_000;

    private WarmPeerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: WarmPeerMain <repetitions> <store> [<store> ...]");
            System.exit(2);
        }
        int repetitions = Integer.parseInt(args[0]);
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        for (String id : List.of(args).subList(1, args.length)) {
            var last = new ArrayList<String>();
            for (int repetition = 0; repetition < repetitions; repetition++) {
                BenchSettings settings = GrowthResults.newRunSettings(Optional.empty());
                try (PeerStore store = PeerStores.open(id, settings, false)) {
                    PeerResult result = PeerWorkload.run(id, store, STEPS, LATEST_CALLS);
                    last.add(String.format(
                            Locale.ROOT,
                            "%.1f ms / %.3f µs",
                            result.totalSaveMillis(),
                            result.latestNanos() / 1e3 / result.latestCalls()));
                } finally {
                    PeerStores.backend(id).ifPresent(backend -> backend.driver().cleanUp(settings));
                    Directories.deleteRecursively(settings.runDir());
                }
                if (last.size() > REPORTED) {
                    last.remove(0);
                }
            }
            System.out.printf(
                    "%-32s %d saves / mean latest, last %d of %d repetitions: %s%n",
                    id, STEPS, last.size(), repetitions, String.join(", ", last));
        }
    }
}
