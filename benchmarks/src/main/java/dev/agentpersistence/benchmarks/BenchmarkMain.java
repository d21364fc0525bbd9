package dev.agentpersistence.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.backend.S3Server;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.benchmarks.peer.PeerResult;
import dev.agentpersistence.benchmarks.peer.PeerStores;
import dev.agentpersistence.benchmarks.report.OpResult;
import dev.agentpersistence.benchmarks.report.Results;
import dev.agentpersistence.benchmarks.report.Summary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs the benchmarks: {@code java -jar benchmarks/target/benchmarks.jar [quick|full] [options] [JMH options]}.
 *
 * <p>Starts S3Proxy, picks a run id that names every table, key prefix, bucket and directory the run uses, runs the JMH
 * benchmarks and the peer workload, removes the run's data from every backend, and writes the results (JMH JSON, peer
 * JSON, a Markdown summary) under {@code benchmarks/target/benchmark-results/}. Options:
 *
 * <ul>
 *   <li>{@code --no-ops}: skip the JMH benchmarks; {@code --no-peers}: skip the peer workload;
 *   <li>{@code --peers=a,b}: run the peer workload on these stores only (see {@link PeerStores#all()});
 *   <li>{@code --keep-data}: leave the run's data in place for inspection;
 *   <li>anything else goes to JMH ({@code -p backend=redis}, {@code -prof jfr}, a benchmark regex, …).
 * </ul>
 */
public final class BenchmarkMain {
    private BenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        var modeName = "quick";
        boolean ops = true;
        boolean peers = true;
        boolean keepData = false;
        List<String> peerStores = null;
        var jmhArgs = new ArrayList<String>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (i == 0 && (arg.equals("quick") || arg.equals("full"))) {
                modeName = arg;
            } else if (arg.equals("--no-ops")) {
                ops = false;
            } else if (arg.equals("--no-peers")) {
                peers = false;
            } else if (arg.equals("--keep-data")) {
                keepData = true;
            } else if (arg.startsWith("--peers=")) {
                peerStores = List.of(arg.substring("--peers=".length()).split(","));
            } else {
                jmhArgs.add(arg);
            }
        }
        RunMode mode = RunMode.of(modeName);
        CommandLineOptions cli = new CommandLineOptions(jmhArgs.toArray(String[]::new));
        run(mode, ops, peers, keepData, peerStores == null ? mode.peerStores() : peerStores, cli);
    }

    private static void run(
            RunMode mode, boolean ops, boolean peers, boolean keepData, List<String> peerStores, CommandLineOptions cli)
            throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Path target = Directories.target();
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path resultsDir = target.resolve("benchmark-results").resolve(mode.name() + "-" + stamp);
        Files.createDirectories(resultsDir);
        long started = System.nanoTime();
        String loadAtStart = Machine.loadAverage();
        try (S3Server s3 = S3Server.start()) {
            BenchSettings settings = BenchSettings.forNewRun(
                    BenchSettings.newRunId("r"), target.resolve("bench-data"), Optional.of(s3.endpoint()));
            s3.createBucket(settings);
            s3.warmUp(settings);
            Map<String, String> machine = Machine.describe(settings.runDir());
            var reachable = new ArrayList<String>();
            var unavailable = new LinkedHashMap<String, String>();
            for (Backend backend : Backend.values()) {
                backend.driver()
                        .unavailable(settings)
                        .ifPresentOrElse(
                                reason -> unavailable.put(backend.id(), reason), () -> reachable.add(backend.id()));
            }
            unavailable.forEach((backend, reason) -> System.err.println("left out " + backend + ": " + reason));
            List<String> incremental = reachable.stream()
                    .filter(id -> Backend.of(id).driver().supportsIncrementalHistory(settings))
                    .toList();
            List<OpResult> opResults = List.of();
            List<PeerResult> peerResults = List.of();
            try {
                if (ops) {
                    opResults = OpsRun.run(mode, settings, reachable, incremental, cli, resultsDir);
                }
                if (peers) {
                    List<String> stores = peerStores.stream()
                            .filter(id -> PeerStores.backend(id)
                                    .map(backend -> PeerStores.incremental(id)
                                            ? incremental.contains(backend.id())
                                            : reachable.contains(backend.id()))
                                    .orElse(true))
                            .toList();
                    peerResults = PeerRun.run(mode, settings, stores, resultsDir);
                }
            } finally {
                if (!keepData) {
                    GrowthResults.removeRunData(settings);
                }
            }
            var results = new Results(opResults, peerResults);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(resultsDir.resolve("results.json").toFile(), results);
            String summary = header(
                            mode,
                            machine,
                            unavailable,
                            incremental,
                            loadAtStart,
                            Duration.ofNanos(System.nanoTime() - started))
                    + new Summary(results).tables();
            Files.writeString(resultsDir.resolve("summary.md"), summary);
            System.out.println();
            System.out.println(summary);
            System.out.println("Results: " + resultsDir);
        }
    }

    private static String header(
            RunMode mode,
            Map<String, String> machine,
            Map<String, String> unavailable,
            List<String> incremental,
            String loadAtStart,
            Duration took) {
        var out = new StringBuilder();
        out.append("## Results: ")
                .append(mode.name())
                .append(" run of ")
                .append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
                .append("\n\n");
        machine.forEach((key, value) ->
                out.append("- ").append(key).append(": ").append(value).append('\n'));
        out.append("- load average (1, 5, 15 min) at start: ")
                .append(loadAtStart)
                .append("; at end: ")
                .append(Machine.loadAverage())
                .append('\n');
        out.append("- JMH: ")
                .append(mode.forks())
                .append(" fork per benchmark, ")
                .append(mode.warmupIterations())
                .append(" warm-up + ")
                .append(mode.iterations())
                .append(" measured iterations of ")
                .append(mode.iterationMillis())
                .append(" ms per benchmark; peer workload: ")
                .append(mode.peerSteps())
                .append(" steps, ")
                .append(mode.peerLatestCalls())
                .append(" × latest")
                .append(mode.peerWarmupSteps() > 0 ? ", after a " + mode.peerWarmupSteps() + "-step warm-up run" : "")
                .append('\n');
        out.append("- took ")
                .append(took.toMinutes())
                .append(" min ")
                .append(took.toSecondsPart())
                .append(" s\n");
        unavailable.forEach((backend, reason) -> out.append("- left out ")
                .append(backend)
                .append(": ")
                .append(reason)
                .append('\n'));
        out.append("- incremental history (`StorageSettings.incrementalHistory`) available on: ")
                .append(incremental.isEmpty() ? "none" : String.join(", ", incremental))
                .append('\n');
        out.append('\n');
        return out.toString();
    }
}
