package dev.agentpersistence.benchmarks.history;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.S3Server;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Storage growth of a long agent run, per backend, with whole histories in every checkpoint against incremental history
 * ({@code StorageSettings.incrementalHistory}): bytes stored and save time for {@code --steps} steps (default 1,000)
 * that each add {@code --step-bytes} (default 2,048) of messages. Run from the benchmark jar:
 *
 * <pre>
 * {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.history.HistoryGrowthMain \
 *     [--steps=1000] [--step-bytes=2048] [--backends=inmemory,file,sqlite,postgresql,mariadb,redis,s3] [--keep-data]}
 * </pre>
 *
 * Starts S3Proxy, uses names unique to the run in every backend, removes the data afterwards, and writes a Markdown
 * table to {@code benchmarks/target/benchmark-results/history-growth-<time>.md}.
 */
public final class HistoryGrowthMain {
    private static final String FULL = "full";
    private static final String INCREMENTAL = "incremental";

    private HistoryGrowthMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("steps", 1000);
        numberDefaults.put("step-bytes", 2048);
        var options = GrowthOptions.parse(
                args,
                numberDefaults,
                Arrays.stream(Backend.values())
                        .map(Backend::id)
                        .filter(id -> !id.equals("file-nofsync"))
                        .toList());
        int steps = options.number("steps");
        int stepBytes = options.number("step-bytes");
        List<String> backends = options.backends();
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var rows = new ArrayList<Row>();
        try (S3Server s3 = S3Server.start()) {
            BenchSettings settings = GrowthResults.newRunSettings(Optional.of(s3.endpoint()));
            s3.createBucket(settings);
            try {
                for (String id : backends) {
                    Optional<Backend> available = GrowthResults.available(id, settings);
                    if (available.isEmpty()) {
                        continue;
                    }
                    Backend backend = available.get();
                    if (!backend.driver().supportsIncrementalHistory(settings)) {
                        System.err.println("left out " + id + ": no history segment store");
                        continue;
                    }
                    for (String store : List.of(FULL, INCREMENTAL)) {
                        rows.add(measure(backend, store, settings, new GrowthRun(steps, stepBytes)));
                        System.err.println(rows.get(rows.size() - 1).line());
                    }
                }
            } finally {
                if (!options.keepData()) {
                    GrowthResults.removeRunData(settings);
                }
            }
        }
        GrowthResults.write("history-growth", table(rows, steps, stepBytes));
    }

    private static Row measure(Backend backend, String store, BenchSettings settings, GrowthRun run) {
        String namespace = "growth" + (store.equals(FULL) ? "full" : "incr");
        try (PersistenceStorageProvider<CheckpointFilter> provider =
                backend.driver().open(settings, namespace, false, store.equals(INCREMENTAL))) {
            GrowthRun.Outcome outcome = run.run(provider, "growth-agent");
            long backendBytes = backend.driver().bytesStored(settings, namespace);
            return new Row(backend.id(), store, outcome, backendBytes);
        }
    }

    /** One backend and store. */
    private record Row(String backend, String store, GrowthRun.Outcome outcome, long backendBytes) {
        int steps() {
            return outcome.saveNanos().length;
        }

        String line() {
            int window = Math.max(1, steps() / 10);
            return String.format(
                    Locale.ROOT,
                    "| %s | %s | %.1f s | %.2f | %.2f | %.2f | %s | %s | %s |",
                    backend,
                    store,
                    outcome.totalNanos() / 1e9,
                    outcome.meanMillis(0, window),
                    outcome.meanMillis(steps() / 2 - window / 2, steps() / 2 + (window + 1) / 2),
                    outcome.meanMillis(steps() - window, steps()),
                    GrowthResults.bytes(backendBytes),
                    GrowthResults.bytes(outcome.logicalBytes()),
                    outcome.latestExact() ? "yes" : "NO");
        }
    }

    private static String table(List<Row> rows, int steps, int stepBytes) {
        int window = Math.max(1, steps / 10);
        var out = new StringBuilder();
        out.append("### Storage growth: ")
                .append(String.format(Locale.ROOT, "%,d", steps))
                .append(" steps, ")
                .append(String.format(Locale.ROOT, "%,d", stepBytes))
                .append(" bytes of new messages per step\n\n");
        out.append("Machine load average at the end: ")
                .append(GrowthResults.loadAverage())
                .append("\n\n");
        out.append("| backend | history | total save time | ms/save, first ")
                .append(window)
                .append(" | ms/save, middle ")
                .append(window)
                .append(" | ms/save, last ")
                .append(window)
                .append(" | bytes in the backend | bytes of documents | latest reads back exactly |\n");
        out.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            out.append(row.line()).append('\n');
        }
        out.append("\n| backend | bytes in the backend, incremental / full | bytes of documents, incremental / full"
                + " | save time, incremental / full | incremental ms/save, last / first |\n|---|---|---|---|---|\n");
        for (Row full : rows) {
            if (!full.store().equals(FULL)) {
                continue;
            }
            for (Row incremental : rows) {
                if (incremental.backend().equals(full.backend())
                        && incremental.store().equals(INCREMENTAL)) {
                    out.append(String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %.2f |%n",
                            full.backend(),
                            ratio(incremental.backendBytes(), full.backendBytes()),
                            ratio(
                                    incremental.outcome().logicalBytes(),
                                    full.outcome().logicalBytes()),
                            String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    (double) incremental.outcome().totalNanos()
                                            / full.outcome().totalNanos()),
                            incremental.outcome().meanMillis(steps - window, steps)
                                    / incremental.outcome().meanMillis(0, window)));
                }
            }
        }
        return out.toString();
    }

    private static String ratio(long part, long whole) {
        if (part < 0 || whole <= 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "1/%.1f", (double) whole / Math.max(1, part));
    }
}
