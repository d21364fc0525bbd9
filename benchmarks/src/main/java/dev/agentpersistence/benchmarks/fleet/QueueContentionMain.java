package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.pipeline.PipelineWorkers;
import dev.agentpersistence.pipeline.QueuedRun;
import dev.agentpersistence.pipeline.WorkerEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Many workers on one queue: {@code --workers=N} worker objects (each over a provider of its own, as processes would
 * be) with {@code --threads=N} threads each drain {@code --runs=N} runs of the five-node pipeline submitted at once, on
 * PostgreSQL (or {@code --backends=sqlite|redis|…} of the benchmarks' backends). Each round measures the queue kept in
 * the store's native queue and the queue kept in the log of checkpoints (the same store behind a provider that offers
 * no native queues), alternating, {@code --rounds=N} times; prints the time from the first submission to the last
 * completion per run and runs per second. With {@code --jvms=N} the workers run in N child JVMs instead
 * ({@link ContentionChildMain}, {@code --threads} each, started and polling before the first submission), and this JVM
 * only submits.
 */
public final class QueueContentionMain {
    private QueueContentionMain() {}

    public static void main(String[] args) throws Exception {
        var defaults = new LinkedHashMap<String, Integer>();
        defaults.put("runs", 400);
        defaults.put("workers", 4);
        defaults.put("threads", 2);
        defaults.put("rounds", 3);
        defaults.put("poll-ms", 10);
        defaults.put("jvms", 0);
        var options = GrowthOptions.parse(args, defaults, List.of("postgresql"));
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        String backendId = options.backends().get(0);
        BenchSettings settings = GrowthResults.newRunSettings(Optional.empty());
        Backend backend = GrowthResults.available(backendId, settings)
                .orElseThrow(() -> new IllegalStateException(backendId + " is not available"));
        String loadAtStart = GrowthResults.loadAverage();
        var rows = new ArrayList<String>();
        for (int round = 1; round <= options.number("rounds"); round++) {
            for (boolean nativeQueue : new boolean[] {true, false}) {
                double perRun = options.number("jvms") > 0
                        ? drainInJvms(backend, settings, options, nativeQueue)
                        : drain(backend, settings, options, nativeQueue);
                rows.add(String.format(
                        Locale.ROOT,
                        "| %d | %s | %.2f | %.0f |",
                        round,
                        nativeQueue ? "native queue" : "log of checkpoints",
                        perRun,
                        1000 / perRun));
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%n%s, %d runs of %d steps, %d %s × %d threads, poll %d ms%n%n",
                backend.id(),
                options.number("runs"),
                FleetPipelines.STEPS,
                options.number("jvms") > 0 ? options.number("jvms") : options.number("workers"),
                options.number("jvms") > 0 ? "worker JVMs" : "workers",
                options.number("threads"),
                options.number("poll-ms"));
        System.out.println("| round | queue | ms per run (first submission → last completion) | runs/s |");
        System.out.println("|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.println(
                "\nload average at the start: " + loadAtStart + ", at the end: " + GrowthResults.loadAverage());
    }

    private static double drain(Backend backend, BenchSettings settings, GrowthOptions options, boolean nativeQueue)
            throws InterruptedException {
        int runs = options.number("runs");
        String name = "contention-" + UUID.randomUUID().toString().substring(0, 8);
        var done = new CountDownLatch(runs);
        var stores = new ArrayList<PersistenceStorageProvider<CheckpointFilter>>();
        var workers = new ArrayList<PipelineWorkers<Integer>>();
        try {
            for (int w = 0; w < options.number("workers"); w++) {
                PersistenceStorageProvider<CheckpointFilter> store =
                        backend.driver().open(settings, FleetBenchmarkMain.NAMESPACE, false);
                stores.add(store);
                var storage = nativeQueue ? store : new LogOnlyStorage(store);
                workers.add(PipelineWorkers.builder(FleetPipelines.fiveSteps(storage, StepHook.NONE, name))
                        .workerId("w" + w)
                        .threads(options.number("threads"))
                        .pollInterval(Duration.ofMillis(options.number("poll-ms")))
                        .listener(event -> {
                            if (event instanceof WorkerEvent.RunReleased released
                                    && released.outcome() == QueuedRun.Status.COMPLETED) {
                                done.countDown();
                            }
                        })
                        .build());
            }
            workers.forEach(PipelineWorkers::start);
            long start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                workers.get(i % workers.size()).submit(name + "-" + i, 0);
            }
            if (!done.await(30, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the runs did not complete: " + done.getCount() + " left");
            }
            return (System.nanoTime() - start) / 1e6 / runs;
        } finally {
            workers.forEach(PipelineWorkers::close);
            stores.forEach(PersistenceStorageProvider::close);
        }
    }

    /**
     * The same drain with the workers in child JVMs, until they printed as many completions as runs were submitted;
     * fails when a run completed twice.
     */
    private static double drainInJvms(
            Backend backend, BenchSettings settings, GrowthOptions options, boolean nativeQueue) throws Exception {
        int runs = options.number("runs");
        String name = "contention-" + UUID.randomUUID().toString().substring(0, 8);
        var children = new ArrayList<ChildProcess>();
        try (PersistenceStorageProvider<CheckpointFilter> store =
                backend.driver().open(settings, FleetBenchmarkMain.NAMESPACE, false)) {
            for (int j = 0; j < options.number("jvms"); j++) {
                children.add(ChildProcess.start(
                        ContentionChildMain.class,
                        settings.jvmArguments(),
                        backend.id(),
                        name,
                        nativeQueue ? "native" : "log",
                        Integer.toString(options.number("threads")),
                        Integer.toString(options.number("poll-ms"))));
            }
            for (ChildProcess child : children) {
                child.await("READY", Duration.ofMinutes(2));
            }
            var submitter = PipelineWorkers.builder(FleetPipelines.fiveSteps(
                            nativeQueue ? store : new LogOnlyStorage(store), StepHook.NONE, name))
                    .build();
            long start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                submitter.submit(name + "-" + i, 0);
            }
            long deadline = start + TimeUnit.MINUTES.toNanos(30);
            while (completions(children).size() < runs) {
                if (System.nanoTime() > deadline || children.stream().noneMatch(ChildProcess::isAlive)) {
                    throw new IllegalStateException("the runs did not complete in the child JVMs");
                }
                Thread.sleep(1);
            }
            double perRun = (System.nanoTime() - start) / 1e6 / runs;
            List<String> done = completions(children);
            if (new HashSet<>(done).size() != runs) {
                throw new IllegalStateException("a run completed twice: " + done.size() + " completions of "
                        + new HashSet<>(done).size() + " runs");
            }
            return perRun;
        } finally {
            for (ChildProcess child : children) {
                child.close();
            }
        }
    }

    private static List<String> completions(List<ChildProcess> children) {
        return children.stream().flatMap(child -> child.lines("DONE ").stream()).toList();
    }
}
