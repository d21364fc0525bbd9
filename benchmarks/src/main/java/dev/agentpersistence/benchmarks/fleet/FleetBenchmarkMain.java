package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineQueue;
import dev.agentpersistence.pipeline.PipelineWorkers;
import dev.agentpersistence.pipeline.QueuedRun;
import dev.agentpersistence.pipeline.WorkerEvent;
import dev.dbos.transact.DBOS;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The fleet benchmark: our five-node pipeline on PostgreSQL against DBOS Transact's five-step workflow on the same
 * server, in one run. Measures (1) a run called directly ({@code Pipeline.run}, what a worker thread calls; DBOS
 * {@code startWorkflow(...).getResult()}), in alternating blocks; (2) runs submitted one after the other to a queue one
 * worker takes them from one at a time ({@link PipelineWorkers} with one thread; a DBOS queue with concurrency 1, both
 * polling every {@code --poll-ms}); (3) recovery: a process blocked in the third step is SIGKILLed, and the time until
 * the run is completed elsewhere is measured (ours: a worker already running takes it over once the lease of
 * {@code --lease-ms} ran out; DBOS: its executor is launched again in the measuring JVM, whose launch recovers the
 * workflow, DBOS's recovery without its hosted service). Options: {@code --runs=N} (default 200), {@code --warmup=N}
 * (50), {@code --recoveries=N} (5), {@code --lease-ms=N} (2000), {@code --poll-ms=N} (10), {@code --keep-data}.
 */
public final class FleetBenchmarkMain {
    /** The table namespace of our store in this benchmark. */
    static final String NAMESPACE = "fleet";

    private static final int BLOCKS = 4;
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(120);

    private FleetBenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        var defaults = new LinkedHashMap<String, Integer>();
        defaults.put("runs", 200);
        defaults.put("warmup", 50);
        defaults.put("recoveries", 5);
        defaults.put("lease-ms", 2000);
        defaults.put("poll-ms", 10);
        var options = GrowthOptions.parse(args, defaults, List.of("postgresql"));
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        int runs = options.number("runs");
        int warmup = options.number("warmup");
        Duration lease = Duration.ofMillis(options.number("lease-ms"));
        Duration poll = Duration.ofMillis(options.number("poll-ms"));
        String loadAtStart = GrowthResults.loadAverage();
        BenchSettings settings = GrowthResults.newRunSettings(Optional.empty());
        if (GrowthResults.available("postgresql", settings).isEmpty()) {
            throw new IllegalStateException("the fleet benchmark needs PostgreSQL");
        }
        var rows = new ArrayList<String>();
        try (var storage = Backend.of("postgresql").driver().open(settings, NAMESPACE, false);
                var dbos = DbosSide.launch(settings, "bench-main", StepHook.NONE, poll)) {
            Pipeline<Integer> pipeline = FleetPipelines.fiveSteps(storage, StepHook.NONE);
            for (int i = 0; i < warmup; i++) {
                pipeline.run("warm-" + i, 0);
                dbos.run("warm-" + i);
            }
            long[] ours = new long[runs];
            long[] theirs = new long[runs];
            int perBlock = runs / BLOCKS;
            for (int block = 0; block < BLOCKS; block++) {
                int from = block * perBlock;
                int to = block == BLOCKS - 1 ? runs : from + perBlock;
                for (int i = from; i < to; i++) {
                    long start = System.nanoTime();
                    pipeline.run("direct-" + i, 0);
                    ours[i] = System.nanoTime() - start;
                }
                for (int i = from; i < to; i++) {
                    long start = System.nanoTime();
                    dbos.run("direct-" + i);
                    theirs[i] = System.nanoTime() - start;
                }
            }
            rows.add(row("run of 5 steps called directly, mean (ms)", mean(ours), mean(theirs)));
            rows.add(row("… p50 (ms)", percentile(ours, 0.50), percentile(theirs, 0.50)));
            rows.add(row("… p99 (ms)", percentile(ours, 0.99), percentile(theirs, 0.99)));
            rows.add(row(
                    "**per step, called directly (ms)**",
                    mean(ours) / FleetPipelines.STEPS,
                    mean(theirs) / FleetPipelines.STEPS));

            queued(pipeline, poll, warmup, "qwarm-");
            double oursQueued = queued(pipeline, poll, runs, "queued-");
            dbosQueued(dbos, warmup, "qwarm-");
            double theirsQueued = dbosQueued(dbos, runs, "queued-");
            rows.add(row(runs + " runs through the queue, one worker, per run (ms)", oursQueued, theirsQueued));
            rows.add(row(
                    "**per step, through the queue (ms)**",
                    oursQueued / FleetPipelines.STEPS,
                    theirsQueued / FleetPipelines.STEPS));
            System.err.println(String.join("\n", rows));
        }
        var oursRecovery = new ArrayList<long[]>();
        var theirsRecovery = new ArrayList<long[]>();
        try (var storage = Backend.of("postgresql").driver().open(settings, NAMESPACE, false)) {
            var pipeline = FleetPipelines.fiveSteps(storage, StepHook.NONE);
            for (int k = 0; k < options.number("recoveries"); k++) {
                oursRecovery.add(recoverOurs(settings, pipeline, lease, poll, "rec-" + k));
                theirsRecovery.add(recoverDbos(settings, poll, "rec-" + k, "bench-exec-" + k));
                System.err.println("recovery " + k + ": ours " + Arrays.toString(oursRecovery.get(k)) + " ms, DBOS "
                        + Arrays.toString(theirsRecovery.get(k)) + " ms");
            }
        } finally {
            if (!options.keepData()) {
                cleanUp(settings);
            }
        }
        long[] oursTotal = oursRecovery.stream().mapToLong(r -> r[0]).toArray();
        long[] theirsTotal = theirsRecovery.stream().mapToLong(r -> r[0]).toArray();
        rows.add(row(
                "recovery, SIGKILL → run completed elsewhere, p50 (ms)",
                percentile(millis(oursTotal), 0.5),
                percentile(millis(theirsTotal), 0.5)));
        rows.add(row("… max (ms)", percentile(millis(oursTotal), 1.0), percentile(millis(theirsTotal), 1.0)));
        String table = "| measure | ours: PipelineWorkers / Pipeline, JDBC on PostgreSQL | DBOS Transact "
                + DBOS.version()
                + " | ours / DBOS |\n|---|---|---|---|\n" + String.join("\n", rows) + "\n\nRecovery rounds (ms):"
                + " ours [kill → completed, lease end → claim], DBOS [kill → completed, kill → launch returned]: ours "
                + oursRecovery.stream().map(Arrays::toString).toList() + ", DBOS "
                + theirsRecovery.stream().map(Arrays::toString).toList() + "\n\nruns " + runs + ", warm-up " + warmup
                + ", lease " + lease.toMillis() + " ms, poll " + poll.toMillis() + " ms; load average at the start: "
                + loadAtStart + ", at the end: " + GrowthResults.loadAverage() + "\n";
        GrowthResults.write("fleet", table);
    }

    /** Submits {@code runs} runs to a queue one running worker thread takes them from; the mean time per run (ms). */
    private static double queued(Pipeline<Integer> pipeline, Duration poll, int runs, String prefix)
            throws InterruptedException {
        var done = new CountDownLatch(runs);
        try (var workers = PipelineWorkers.builder(pipeline)
                .workerId("bench")
                .pollInterval(poll)
                .listener(event -> {
                    if (event instanceof WorkerEvent.RunReleased released
                            && released.outcome() == QueuedRun.Status.COMPLETED) {
                        done.countDown();
                    }
                })
                .build()
                .start()) {
            long start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                workers.submit(prefix + i, 0);
            }
            if (!done.await(30, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the queued runs did not complete: " + done.getCount() + " left");
            }
            return (System.nanoTime() - start) / 1e6 / runs;
        }
    }

    private static double dbosQueued(DbosSide dbos, int runs, String prefix) throws InterruptedException {
        long start = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            dbos.enqueue(prefix + i);
        }
        for (int i = 0; i < runs; i++) {
            dbos.await(prefix + i);
        }
        return (System.nanoTime() - start) / 1e6 / runs;
    }

    /** [kill → completed, lease end → claim] in ms. */
    private static long[] recoverOurs(
            BenchSettings settings, Pipeline<Integer> pipeline, Duration lease, Duration poll, String id)
            throws Exception {
        PipelineQueue.of(pipeline.persistence().storage(), pipeline.name(), Clock.systemUTC())
                .submit(id, pipeline.codec().encode(0));
        var completed = new CountDownLatch(1);
        long[] afterLease = {-1};
        try (var child = ChildProcess.start(settings.jvmArguments(), "ours", Long.toString(lease.toMillis()))) {
            child.await("IN-STEP 3", CHILD_TIMEOUT);
            try (var workers = PipelineWorkers.builder(pipeline)
                    .workerId("survivor")
                    .leaseTime(lease)
                    .pollInterval(poll)
                    .listener(event -> {
                        if (event instanceof WorkerEvent.RunClaimed claimed
                                && claimed.runId().equals(id)) {
                            afterLease[0] = claimed.recoveredAfter()
                                    .map(Duration::toMillis)
                                    .orElse(-1L);
                        } else if (event instanceof WorkerEvent.RunReleased released
                                && released.runId().equals(id)
                                && released.outcome() == QueuedRun.Status.COMPLETED) {
                            completed.countDown();
                        }
                    })
                    .build()
                    .start()) {
                long killed = System.nanoTime();
                child.kill();
                if (!completed.await(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("run " + id + " was not recovered");
                }
                return new long[] {(System.nanoTime() - killed) / 1_000_000, afterLease[0]};
            }
        }
    }

    /** [kill → completed, kill → launch returned] in ms. */
    private static long[] recoverDbos(BenchSettings settings, Duration poll, String id, String executor)
            throws Exception {
        try (var child = ChildProcess.start(settings.jvmArguments(), "dbos", id, executor)) {
            child.await("IN-STEP 3", CHILD_TIMEOUT);
            long killed = System.nanoTime();
            child.kill();
            try (var dbos = DbosSide.launch(settings, executor, StepHook.NONE, poll)) {
                long launched = System.nanoTime();
                int result = dbos.await(id);
                if (result != FleetPipelines.STEPS) {
                    throw new IllegalStateException("workflow " + id + " returned " + result);
                }
                return new long[] {(System.nanoTime() - killed) / 1_000_000, (launched - killed) / 1_000_000};
            }
        }
    }

    private static void cleanUp(BenchSettings settings) throws Exception {
        try {
            Backend.of("postgresql").driver().cleanUp(settings);
        } catch (RuntimeException e) {
            System.err.println("could not remove the run's tables: " + e);
        }
        try (var connection = DriverManager.getConnection(settings.postgresUrl());
                var statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + DbosSide.schema(settings) + " CASCADE");
        }
        Directories.deleteRecursively(settings.runDir());
    }

    private static String row(String measure, double ours, double theirs) {
        return String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f× |", measure, ours, theirs, ours / theirs);
    }

    private static double mean(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(Double.NaN) / 1e6;
    }

    private static double percentile(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    private static long[] millis(long[] millis) {
        return Arrays.stream(millis).map(m -> m * 1_000_000).toArray();
    }
}
