package dev.agentpersistence.benchmarks.adk;

import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.adk.AgentPersistenceSessionService;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * ADK sessions: bytes held and append latency of {@link AdkAppendWorkload} through ADK's own
 * {@link InMemorySessionService} and through our {@link AgentPersistenceSessionService} over our stores, one after the
 * other in one JVM. Each service first runs the workload on storage of its own that is not measured (a warm-up), then
 * on fresh storage. Prints a markdown table and writes it to {@code benchmarks/target/benchmark-results/adk-<time>.md}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.adk.AdkSessionMain \
 *     [--events=200] [--warmup=100] [--stores=adk-inmemory,ours-inmemory,ours-sqlite,ours-file,ours-postgresql]
 * </pre>
 *
 * Bytes held: for our stores on disk or in a database, what {@code BackendDriver.bytesStored} measures (the SQLite file
 * and its write-ahead log, the file store's directory, the PostgreSQL tables' relation sizes); for the in-memory
 * services, which have no stored form, the UTF-8 length of the session read back as ADK's {@code Session.toJson()}
 * writes it (the session JSON column gives that length for every store).
 */
public final class AdkSessionMain {
    private static final String ADK = "adk-inmemory";
    private static final String OURS = "ours-";

    private AdkSessionMain() {}

    public static void main(String[] args) throws Exception {
        int events = Integer.parseInt(option(args, "events", "200"));
        int warmup = Integer.parseInt(option(args, "warmup", "100"));
        List<String> stores = Arrays.stream(
                        option(args, "stores", "adk-inmemory,ours-inmemory,ours-sqlite,ours-file,ours-postgresql")
                                .split(","))
                .map(String::trim)
                .toList();
        String runId = BenchSettings.newRunId("adk");
        BenchSettings settings =
                BenchSettings.forNewRun(runId, Path.of("benchmarks/target/adk-data", runId), Optional.empty());
        Set<Backend> used = EnumSet.noneOf(Backend.class);
        var rows = new ArrayList<String>();
        try {
            for (String store : stores) {
                if (warmup > 0) {
                    measure(store, settings, "adkw", warmup, used);
                }
                Measured measured = measure(store, settings, "adk", events, used);
                rows.add(row(store, measured));
                System.err.println("done: " + store);
            }
        } finally {
            for (Backend backend : used) {
                backend.driver().cleanUp(settings);
            }
        }
        String table = table(events, rows);
        System.out.println(table);
        Path results = Path.of("benchmarks/target/benchmark-results");
        Files.createDirectories(results);
        Files.writeString(results.resolve("adk-" + Long.toString(System.currentTimeMillis(), 36) + ".md"), table);
    }

    private record Measured(AdkAppendWorkload.Result result, long bytesStored) {}

    private static Measured measure(
            String store, BenchSettings settings, String namespace, int events, Set<Backend> used) throws Exception {
        String session = "session-" + namespace;
        if (store.equals(ADK)) {
            return new Measured(AdkAppendWorkload.run(new InMemorySessionService(), session, events), -1);
        }
        if (!store.startsWith(OURS)) {
            throw new IllegalArgumentException("Unknown store '" + store + "'; known: " + ADK + ", ours-<backend>");
        }
        Backend backend = Backend.of(store.substring(OURS.length()));
        backend.driver().unavailable(settings).ifPresent(why -> {
            throw new IllegalStateException(store + " cannot run: " + why);
        });
        used.add(backend);
        AdkAppendWorkload.Result result;
        try (PersistenceStorageProvider<CheckpointFilter> provider =
                backend.driver().open(settings, namespace, false, true)) {
            BaseSessionService service = AgentPersistenceSessionService.of(provider);
            result = AdkAppendWorkload.run(service, session, events);
        }
        return new Measured(result, backend.driver().bytesStored(settings, namespace));
    }

    private static String row(String store, Measured measured) {
        AdkAppendWorkload.Result r = measured.result();
        int n = r.appendNanos().length;
        String held = measured.bytesStored() >= 0
                ? kib(measured.bytesStored())
                : kib(r.sessionJsonBytes()) + " (session JSON)";
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f / %.3f | %.3f / %.3f |",
                store,
                held,
                kib(r.sessionJsonBytes()),
                r.percentileMillis(50),
                r.percentileMillis(99),
                r.meanMillis(),
                r.meanMillis(0, 20),
                r.meanMillis(n - 20, n),
                r.medianMillis(0, n / 4),
                r.medianMillis(n - n / 4, n));
    }

    private static String table(int events, List<String> rows) {
        var out = new StringBuilder();
        out.append("| store | bytes held after ")
                .append(events)
                .append(" events | session JSON (`Session.toJson()`)")
                .append(" | append p50 ms | append p99 ms | append mean ms | mean ms, first / last 20")
                .append(" | p50 ms, first / last quarter |\n");
        out.append("|---|---|---|---|---|---|---|---|\n");
        rows.forEach(row -> out.append(row).append('\n'));
        return out.toString();
    }

    private static String kib(long bytes) {
        return String.format(Locale.ROOT, "%,.1f KiB", bytes / 1024.0);
    }

    private static String option(String[] args, String name, String fallback) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return fallback;
    }
}
