package dev.agentpersistence.examples.metrics;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.examples.ConsoleOutput;
import dev.agentpersistence.examples.ExampleCommands;
import dev.agentpersistence.examples.ExampleFiles;
import dev.agentpersistence.examples.StorageSelection;
import dev.agentpersistence.examples.demo.CrashSwitch;
import dev.agentpersistence.examples.demo.DocumentPipeline;
import dev.agentpersistence.examples.demo.ScriptedWriterModel;
import dev.agentpersistence.examples.embedding.EmbeddingExample;
import dev.agentpersistence.examples.embedding.OrdersStore;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservations;
import dev.agentpersistence.pipeline.FileWorkspace;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineMetrics;
import dev.agentpersistence.pipeline.PipelineResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Serves Prometheus metrics while the document pipeline runs several times: each run has one agent break a rule (so
 * there are validation failures, rollbacks and retries), every few saves the "network" drops one (storage errors,
 * checkpoint retries), and a stale writer hits a version conflict at the end. The endpoint is on the loopback address;
 * the Grafana dashboard in {@code examples/grafana/agent-persistence-dashboard.json} charts what it serves.
 */
@Command(
        name = "metrics-example",
        mixinStandardHelpOptions = true,
        description = "Runs the document pipeline several times and serves its metrics for Prometheus.")
public final class MetricsExample implements Callable<Integer> {

    @Option(
            names = "--port",
            defaultValue = "9464",
            description = "Port of the scrape endpoint on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--runs", defaultValue = "6", description = "Pipeline runs to make (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(
            names = "--storage",
            paramLabel = "<storage>",
            description = "Where checkpoints go, as for the demo (default: embedded SQLite in <examples dir>/metrics).")
    private String storage;

    @Option(
            names = "--blip-every",
            defaultValue = "7",
            description =
                    "Fail every n-th checkpoint save as a network blip; 0 turns it off (default: ${DEFAULT-VALUE}).")
    private int blipEvery;

    @Option(names = "--serve", description = "Keep serving the endpoint after the runs, until Ctrl+C.")
    private boolean serve;

    /** Runs the example. */
    public static void main(String[] args) {
        ExampleCommands.run(new MetricsExample(), args);
    }

    /** A Prometheus registry with histogram buckets for every {@code agent.*} timer and summary. */
    public static PrometheusMeterRegistry newRegistry() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new HistogramsForAgentMeters());
        return registry;
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || (blipEvery != 0 && blipEvery < 2)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--runs must be >= 1 and --blip-every 0 or >= 2");
        }
        PrintStream out = ConsoleOutput.utf8();
        StorageSelection selection = storage == null
                ? StorageSelection.sqlite(ExampleFiles.path("metrics/checkpoints.db"))
                : StorageSelection.parse(storage);
        PrometheusMeterRegistry registry = newRegistry();
        try (var endpoint = PrometheusEndpoint.start(registry, port);
                PersistenceStorageProvider<CheckpointFilter> provider = openStorage(selection, registry)) {
            out.println("agent-persistence metrics example");
            out.println("  Prometheus endpoint  " + endpoint.uri());
            out.println("  storage              " + selection
                    + (blipEvery == 0 ? "" : ", every " + blipEvery + "th save fails like a network blip"));
            var results = runWorkload(
                    registry,
                    provider,
                    selection.provider(),
                    ExampleFiles.path("metrics/workspace"),
                    runs,
                    blipEvery,
                    out);
            printSummary(registry, out);
            if (serve) {
                out.println("Serving " + endpoint.uri() + " until Ctrl+C");
                new CountDownLatch(1).await();
            } else {
                out.println("Done (" + results.size() + " runs); --serve keeps the endpoint up for Prometheus.");
            }
        }
        return 0;
    }

    /** The largest checkpoint the example's storage keeps; the workload tries one larger save. */
    public static final String CHECKPOINT_CAP = "1MiB";

    /**
     * Opens {@code selection} observed into {@code registry} (its meters carry {@code provider=<name>}), capping
     * checkpoints at {@value #CHECKPOINT_CAP} unless the selection sets its own cap.
     */
    public static PersistenceStorageProvider<CheckpointFilter> openStorage(
            StorageSelection selection, MeterRegistry registry) {
        var config = selection.config();
        if (config.get(CodecSettings.MAX_CHECKPOINT_SIZE.key()).isEmpty()) {
            config = config.with(CodecSettings.MAX_CHECKPOINT_SIZE.key(), CHECKPOINT_CAP);
        }
        return new StorageSelection(selection.provider(), config, selection.description())
                .open(AgentObservations.registryFor(registry));
    }

    /**
     * Runs the pipeline {@code runs} times over {@code backend} (opened with {@link #openStorage}), then makes one
     * stale-writer save that conflicts and one save over the size cap that is refused, then runs the embedding
     * example's agent loop once (a rollback through {@code AgentPersistence}).
     *
     * @param blipEvery fail every n-th save as a network blip; 0 for never
     * @return the results of the runs
     */
    public static List<PipelineResult<FileWorkspace>> runWorkload(
            MeterRegistry registry,
            PersistenceStorageProvider<CheckpointFilter> backend,
            String providerName,
            Path workspaces,
            int runs,
            int blipEvery,
            PrintStream out) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(backend, "backend");
        ObservationRegistry observations = AgentObservations.registryFor(registry);
        PersistenceStorageProvider<CheckpointFilter> network =
                blipEvery == 0 ? backend : new UnreliableNetwork<>(backend, blipEvery);
        var storage = network;
        var results = new ArrayList<PipelineResult<FileWorkspace>>();
        for (int i = 1; i <= runs; i++) {
            String runId = "metrics-" + i;
            int slot = (i - 1) % (DocumentPipeline.AGENTS.size() + 1);
            // runs 1-3 (and 5-7, ...): one agent breaks a rule once; every 4th run goes through cleanly
            String flawed = slot < DocumentPipeline.AGENTS.size() ? DocumentPipeline.AGENTS.get(slot) : null;
            storage.deleteCheckpoints(Pipeline.storedRunId(runId));
            Path directory = workspaces.resolve(runId);
            var tally = new RunTally();
            var pipeline = DocumentPipeline.builder(
                            directory,
                            new ScriptedWriterModel(flawed == null ? Set.of() : Set.of(flawed)),
                            CrashSwitch.off())
                    .storage(storage)
                    .meterRegistry(registry)
                    .observationRegistry(observations)
                    .listener(tally)
                    .build();
            long start = System.nanoTime();
            var result = pipeline.run(runId, DocumentPipeline.newWorkspace(directory));
            results.add(result);
            out.printf(
                    Locale.ROOT,
                    "  run %d/%d %-10s %-9s in %4d ms: %s%n",
                    i,
                    runs,
                    runId,
                    result.isCompleted() ? "completed" : "FAILED",
                    (System.nanoTime() - start) / 1_000_000,
                    tally.describe());
        }
        staleWriter(storage, out);
        oversizedSave(backend, out);
        // The embedded agent saves without the pipeline's checkpoint retries, so it talks to the backend directly.
        embeddedAgent(registry, backend, workspaces.resolve("orders.db"), out);
        return results;
    }

    /** The embedding example's agent loop, whose rollback goes through AgentPersistence (facade metrics). */
    private static void embeddedAgent(
            MeterRegistry registry,
            PersistenceStorageProvider<CheckpointFilter> storage,
            Path orders,
            PrintStream out) {
        try {
            Files.createDirectories(orders.getParent());
            Files.deleteIfExists(orders);
            var quiet = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
            var outcome = EmbeddingExample.run(storage, new OrdersStore(orders), "shopper-metrics", registry, quiet);
            out.println("  embedded agent loop: rollback undid "
                    + outcome.rollback().performed().size() + " orders, the retry ordered "
                    + outcome.finalOrders().size());
        } catch (Exception e) {
            throw new IllegalStateException("the embedded agent scenario failed", e);
        }
    }

    /** A writer that missed the newer checkpoints saves a version that is taken: refused, nothing overwritten. */
    private static void staleWriter(PersistenceStorageProvider<CheckpointFilter> storage, PrintStream out) {
        String runId = Pipeline.storedRunId("metrics-1");
        AgentCheckpoint first =
                storage
                        .getCheckpoints(
                                runId, CheckpointFilter.builder().maxVersion(1L).build())
                        .stream()
                        .reduce((a, b) -> b)
                        .orElseThrow();
        AgentCheckpoint stale = first.toBuilder()
                .checkpointId("stale-" + first.checkpointId())
                .message(Message.assistant("an edit made from an old copy"))
                .build();
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                storage.saveCheckpoint(runId, stale);
                out.println("  stale writer: version " + stale.version() + " saved (unexpected)");
                return;
            } catch (CheckpointConflictException e) {
                out.println("  stale writer: saving version " + stale.version() + " of " + runId
                        + " again with other content is refused (CheckpointConflictException)");
                return;
            } catch (StorageUnavailableException e) {
                out.println("  stale writer: " + e.getMessage() + ", trying again");
            }
        }
    }

    /** An agent tries to keep a tool output over the cap: refused before anything is written, counted as an error. */
    private static void oversizedSave(PersistenceStorageProvider<CheckpointFilter> storage, PrintStream out) {
        String runId = "metrics-oversized";
        var checkpoint = AgentCheckpoint.builder()
                .agentId(runId)
                .checkpointId("cp-0")
                .version(0)
                .createdAt(Instant.now())
                .message(Message.toolResult("call-1", "fetch_report", "pasted whole: " + "x".repeat(2 << 20)))
                .build();
        try {
            storage.saveCheckpoint(runId, checkpoint);
            out.println("  oversized save: stored (unexpected)");
        } catch (CheckpointTooLargeException e) {
            out.println("  oversized save: a 2 MiB tool output is refused (CheckpointTooLargeException)");
        }
    }

    /** A few of the served values, read from the registry. */
    public static void printSummary(MeterRegistry registry, PrintStream out) {
        out.println("Some of the served metrics:");
        long saved = 0;
        long conflicts = 0;
        double saveSeconds = 0;
        for (Timer timer : registry.find(StorageMetricNames.CHECKPOINT_SAVE).timers()) {
            String outcome = timer.getId().getTag(StorageMetricNames.TAG_OUTCOME);
            if ("success".equals(outcome)) {
                saved += timer.count();
                saveSeconds += timer.totalTime(TimeUnit.SECONDS);
            } else if ("conflict".equals(outcome)) {
                conflicts += timer.count();
            }
        }
        var errors = new TreeMap<String, Double>();
        for (Counter counter : registry.find(StorageMetricNames.ERRORS).counters()) {
            errors.merge(counter.getId().getTag(StorageMetricNames.TAG_EXCEPTION), counter.count(), Double::sum);
        }
        out.printf(
                Locale.ROOT,
                "  %-24s %d saved (mean %.1f ms), %d conflict(s), errors: %s%n",
                "checkpoint saves",
                saved,
                saved == 0 ? 0 : saveSeconds * 1000 / saved,
                conflicts,
                errors.isEmpty()
                        ? "none"
                        : errors.entrySet().stream()
                                .map(e -> e.getValue().longValue() + " " + e.getKey())
                                .collect(Collectors.joining(", ")));
        out.printf(
                Locale.ROOT,
                "  %-24s %.0f attempts, %.0f retries, %.0f rollbacks%n",
                "pipeline nodes",
                sum(registry, PipelineMetrics.NODE_ATTEMPTS),
                sum(registry, PipelineMetrics.NODE_RETRIES),
                sum(registry, PipelineMetrics.NODE_ROLLBACKS));
        var failures = new TreeMap<String, Double>();
        for (Counter counter :
                registry.find(PipelineMetrics.VALIDATION_FAILURES).counters()) {
            failures.merge(
                    counter.getId().getTag("node") + "/" + counter.getId().getTag("condition"),
                    counter.count(),
                    Double::sum);
        }
        out.printf(
                Locale.ROOT,
                "  %-24s %s%n",
                "validation failures",
                failures.isEmpty()
                        ? "none"
                        : failures.entrySet().stream()
                                .map(e -> e.getKey() + " " + e.getValue().longValue())
                                .collect(Collectors.joining(", ")));
    }

    private static double sum(MeterRegistry registry, String counter) {
        return registry.find(counter).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
