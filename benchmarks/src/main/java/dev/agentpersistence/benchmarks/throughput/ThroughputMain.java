package dev.agentpersistence.benchmarks.throughput;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The throughput benchmark: 1, 2, 4 and 8 threads × 64 agents saving (a 10-message checkpoint) and reading the latest
 * checkpoint on one provider per backend, with the stored form discovery gives. Reports saves per second and the
 * p50/p99 latency of saves and latest reads, to show how the cost of a call grows with load. Options:
 * {@code --seconds=N} per measurement (default 5), {@code --agents=N} (default 64),
 * {@code --backends=sqlite,postgresql,redis}, {@code --keep-data}.
 */
public final class ThroughputMain {
    private static final int[] THREADS = {1, 2, 4, 8};

    private ThroughputMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("seconds", 5);
        numberDefaults.put("agents", 64);
        var options = GrowthOptions.parse(args, numberDefaults, List.of("sqlite", "postgresql", "redis"));
        var run = Duration.ofSeconds(options.number("seconds"));
        int agents = options.number("agents");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        String loadAtStart = loadAverage();
        BenchSettings settings = GrowthResults.newRunSettings(Optional.empty());
        var rows = new ArrayList<String>();
        try {
            for (String id : options.backends()) {
                Optional<Backend> backend = GrowthResults.available(id, settings);
                if (backend.isEmpty()) {
                    continue;
                }
                for (int threads : THREADS) {
                    String namespace = "tput" + threads;
                    try (var provider = backend.get().driver().open(settings, namespace, false, true)) {
                        var result = new ThroughputRun(threads, agents, run).measure(provider, "tp-" + threads + "-");
                        rows.add(row(id, result));
                        System.err.println(rows.get(rows.size() - 1));
                    }
                }
            }
        } finally {
            if (!options.keepData()) {
                for (String id : options.backends()) {
                    try {
                        Backend.of(id).driver().cleanUp(settings);
                    } catch (RuntimeException e) {
                        System.err.println("could not remove the run's data from " + id + ": " + e);
                    }
                }
                Directories.deleteRecursively(settings.runDir());
            }
        }
        GrowthResults.write("throughput", table(rows, agents, run, loadAtStart));
    }

    private static String row(String backend, ThroughputRun.Result result) {
        return String.format(
                Locale.ROOT,
                "| %s | %d | %,.0f | %.2f | %.2f | %.2f | %.2f | %,d |",
                backend,
                result.threads(),
                result.savesPerSecond(),
                ThroughputRun.Result.millis(result.saves(), 0.50),
                ThroughputRun.Result.millis(result.saves(), 0.99),
                ThroughputRun.Result.millis(result.latests(), 0.50),
                ThroughputRun.Result.millis(result.latests(), 0.99),
                result.saves().length);
    }

    /** The 1, 5 and 15 minute load averages. */
    private static String loadAverage() {
        String[] fields = GrowthResults.loadAverage().split(" ");
        return fields.length < 3 ? fields[0] : String.join(", ", fields[0], fields[1], fields[2]);
    }

    private static String table(List<String> rows, int agents, Duration run, String loadAtStart) {
        var table = new StringBuilder();
        table.append("### Throughput: threads × ")
                .append(agents)
                .append(" agents, each save (10 messages) followed by")
                .append(" a latest read, ")
                .append(run.toSeconds())
                .append(" s per row\n\n")
                .append("Load average at start: ")
                .append(loadAtStart)
                .append("; at end: ")
                .append(loadAverage())
                .append("\n\n")
                .append("| backend | threads | saves/s | save p50 ms | save p99 ms | latest p50 ms | latest p99 ms | "
                        + "saves |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        rows.forEach(row -> table.append(row).append('\n'));
        return table.toString();
    }
}
