package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.pipeline.QueuedRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fleet of worker JVMs ({@link FleetWorkerMain}, {@code PipelineWorkers} with {@value #THREADS} threads each) on one
 * store, one of them SIGKILLed at random every {@value #KILL_MIN_MILLIS}–{@value #KILL_MAX_MILLIS} ms and replaced by a
 * new one, until every run is done: 3 workers on PostgreSQL, 3 on Redis, 2 on one SQLite file. The runs are
 * {@link FleetPipeline}'s five nodes, each inserting a row into a real PostgreSQL table through a journaled
 * {@code KeyedTool} whose inverse deletes it.
 *
 * <p>Asserted: every run is {@code COMPLETED} in the queue, with no second {@code COMPLETED} entry in the queue log;
 * its checkpoints hold one checkpoint per node in order and one end; the table holds exactly one row per node of every
 * run, the one of the attempt the node's checkpoint committed (a killed attempt's row was deleted by the next owner's
 * undo, so no duplicate and none missing); and every run a killed worker held is taken over within the lease time + 20
 * s. Measured and recorded in the figures: the latency from a kill to the claim of each such run, whose 99th percentile
 * is to stay within the lease time + 2 s on a quiet machine (the row says whether it did), and the recovery timer's
 * figure (the end of the dead worker's lease to the claim, as {@code PipelineWorkersMetrics} records it).
 *
 * <p>The run count is {@value #RUNS} by default, the figure the fleet is specified with; a build with less time may
 * pass {@code -Dagent.persistence.reliability.fleet.runs=N}, and the figures row names the count that ran.
 */
class FleetKillTest {
    static final String RUNS = "agent.persistence.reliability.fleet.runs";
    private static final int DEFAULT_RUNS = 200;
    private static final int THREADS = 2;
    private static final long KILL_MIN_MILLIS = 2_000;
    private static final long KILL_MAX_MILLIS = 4_000;
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(100);
    /** Longer than any scheduling delay of a loaded 2-core machine: a run not taken over by then was left behind. */
    private static final Duration LEFT_BEHIND = Duration.ofSeconds(20);

    private static final Duration DEADLINE = Duration.ofMinutes(8);

    private final Random random = new Random();
    private final ExecutorService starter = Executors.newCachedThreadPool();
    private Path dir;
    private Backends backends;

    @BeforeEach
    void createDir() throws Exception {
        dir = Ids.scratch("fleet-kill");
        backends = new Backends(dir);
    }

    @AfterEach
    void deleteDir() throws Exception {
        starter.shutdownNow();
        backends.close();
        Ids.delete(dir);
    }

    @Test
    @Timeout(900)
    void postgres() throws Exception {
        fleet(backends.postgres(), 3);
    }

    @Test
    @Timeout(900)
    void redis() throws Exception {
        fleet(backends.redis(), 3);
    }

    @Test
    @Timeout(900)
    void sqlite() throws Exception {
        fleet(backends.sqlite(), 2);
    }

    private void fleet(Backend backend, int size) throws Exception {
        int runs = Integer.getInteger(RUNS, DEFAULT_RUNS);
        try (var fleet = new Fleet(backend, dir, LEASE, POLL, THREADS)) {
            long started = System.nanoTime();
            List<String> ids = fleet.submit(runs);
            var live = new ArrayList<Future<Fleet.Worker>>();
            for (int i = 0; i < size; i++) {
                live.add(start(fleet, "w" + i));
            }
            var kills = new ArrayList<Kill>();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            long nextKill = System.nanoTime() + killGap();
            int completed = 0;
            while (completed < runs) {
                assertThat(System.nanoTime())
                        .as("every run done within %s; %d of %d completed", DEADLINE, completed, runs)
                        .isLessThan(deadline);
                List<QueuedRun> queued = fleet.queue.runs();
                assertThat(queued)
                        .as("runs that failed for good")
                        .noneMatch(run -> run.status() == QueuedRun.Status.FAILED);
                if (System.nanoTime() >= nextKill) {
                    // a random worker among those working (replacements start in the background meanwhile),
                    // never the last one: the runs it held are recovered by a survivor, not by a JVM still starting
                    var working = live.stream().filter(Future::isDone).toList();
                    if (working.size() >= 2) {
                        var chosen = working.get(random.nextInt(working.size()));
                        live.remove(chosen);
                        Fleet.Worker victim = chosen.get();
                        long killedAt = System.currentTimeMillis();
                        victim.jvm().kill();
                        kills.add(new Kill(victim.id(), killedAt, held(victim)));
                        live.add(start(fleet, "w" + (size + kills.size() - 1)));
                    }
                    nextKill = System.nanoTime() + killGap();
                }
                Thread.sleep(200);
                completed = (int) fleet.queue.runs().stream()
                        .filter(run -> run.status() == QueuedRun.Status.COMPLETED)
                        .count();
            }
            long wall = (System.nanoTime() - started) / 1_000_000;

            assertThat(fleet.queue.runs())
                    .as("every run completed in the queue")
                    .allMatch(run -> run.status() == QueuedRun.Status.COMPLETED)
                    .hasSize(runs);
            // A log is trimmed behind its snapshots, so only the entries it keeps can be counted: none of them
            // completes a run twice (each run's own checkpoints, checked below, show it ran to its end once). A
            // native queue keeps one item per run, each of which must say it completed.
            var completedEntries = FleetRecords.queueEntries(fleet.storage, fleet.pipeline, "COMPLETED");
            assertThat(completedEntries)
                    .as("no run completed twice in the entries the queue keeps")
                    .allSatisfy((run, count) -> assertThat(count).as(run).isEqualTo(1));
            if (fleet.storage.queues().isPresent()) {
                assertThat(completedEntries.keySet())
                        .as("the completed run items")
                        .containsExactlyInAnyOrderElementsOf(ids);
            }
            var committed = new HashMap<String, Integer>();
            for (String run : ids) {
                FleetRecords.assertCompletedOnce(fleet.storage, run)
                        .forEach((node, attempt) -> committed.put(run + " " + node, attempt));
            }
            var rows = fleet.effects.rows();
            var inTable = new HashMap<String, List<Integer>>();
            rows.forEach(row -> inTable.computeIfAbsent(row.runId() + " " + row.node(), k -> new ArrayList<>())
                    .add(row.attempt()));
            assertThat(inTable.keySet()).as("a row for every node of every run").isEqualTo(committed.keySet());
            inTable.forEach((node, attempts) -> assertThat(attempts)
                    .as("the rows of %s: the committed attempt's only", node)
                    .containsExactly(committed.get(node)));
            assertThat(rows).hasSize(runs * FleetPipeline.NODES);

            var lines = new ArrayList<String>();
            fleet.workers()
                    .forEach(worker -> worker.jvm().lines().forEach(line -> lines.add(worker.id() + " " + line)));
            List<Long> fromKill = fromKillToClaim(kills, lines);
            List<Long> afterLease = new ArrayList<>();
            int undone = 0;
            for (String line : lines) {
                String[] parts = line.split(" ");
                if (parts[1].equals("CLAIMED") && Long.parseLong(parts[4]) >= 0) {
                    afterLease.add(Long.parseLong(parts[4]));
                }
            }
            for (var undo : fleet.effects.undos()) {
                undone += undo.deleted();
            }
            int abandoned = kills.stream().mapToInt(kill -> kill.held().size()).sum();
            assertThat(fromKill)
                    .as("runs the killed workers held were taken over")
                    .isNotEmpty();
            String figures = String.format(
                    Locale.ROOT,
                    "%d runs of %d nodes, %d workers × %d threads, lease %d ms, poll %d ms: %d SIGKILLs, %d runs held"
                            + " by killed workers, %d taken over; kill → claim p50 %d ms, p99 %d ms, max %d ms;"
                            + " lease end → claim (recovery timer) p50 %d ms, p99 %d ms over %d claims; %d rows"
                            + " undone; %d rows, one per node; %d ms",
                    runs,
                    FleetPipeline.NODES,
                    size,
                    THREADS,
                    LEASE.toMillis(),
                    POLL.toMillis(),
                    kills.size(),
                    abandoned,
                    fromKill.size(),
                    percentile(fromKill, 0.50),
                    percentile(fromKill, 0.99),
                    percentile(fromKill, 1.0),
                    percentile(afterLease, 0.50),
                    percentile(afterLease, 0.99),
                    afterLease.size(),
                    undone,
                    rows.size(),
                    wall);
            // The recovery target (p99 within the lease time + 2 s) is a measurement, read off the figures on a quiet
            // machine; the test fails only when a run is left behind far longer than any scheduling delay explains.
            long target = LEASE.toMillis() + 2_000;
            Figures.record(
                    "fleet of workers SIGKILLed",
                    backend.label(),
                    figures + (percentile(fromKill, 0.99) <= target ? "; p99 within" : "; p99 over") + " the target of "
                            + target + " ms");
            assertThat(percentile(fromKill, 1.0))
                    .as(
                            "every run taken over within the lease time + %d s: %s; the slowest: %s",
                            LEFT_BEHIND.toSeconds(), figures, slowest(kills, lines))
                    .isLessThanOrEqualTo(LEASE.plus(LEFT_BEHIND).toMillis());
        }
    }

    /** Starts a worker in the background, so that the kills keep their pace while JVMs start. */
    private Future<Fleet.Worker> start(Fleet fleet, String id) {
        return starter.submit(() -> fleet.start(id, null, Duration.ZERO));
    }

    /** The runs a worker has claimed and not released, from its output. */
    private static Set<String> held(Fleet.Worker worker) {
        var held = new HashSet<String>();
        for (String line : worker.jvm().lines()) {
            String[] parts = line.split(" ");
            if (parts[0].equals("CLAIMED")) {
                held.add(parts[1]);
            } else if (parts[0].equals("RELEASED")) {
                held.remove(parts[1]);
            }
        }
        return held;
    }

    /** Per run a killed worker held: the time from the kill to the next claim of the run by another worker. */
    private static List<Long> fromKillToClaim(List<Kill> kills, List<String> lines) {
        var latencies = new ArrayList<Long>();
        for (Kill kill : kills) {
            for (String run : kill.held()) {
                long first = Long.MAX_VALUE;
                for (String line : lines) {
                    String[] parts = line.split(" ");
                    if (!parts[0].equals(kill.worker()) && parts[1].equals("CLAIMED") && parts[2].equals(run)) {
                        long at = Long.parseLong(parts[3]);
                        if (at >= kill.at()) {
                            first = Math.min(first, at);
                        }
                    }
                }
                if (first != Long.MAX_VALUE) {
                    latencies.add(first - kill.at());
                }
            }
        }
        return latencies;
    }

    /** What the workers printed about the run whose claim came latest after a kill, for the message of a failure. */
    private static String slowest(List<Kill> kills, List<String> lines) {
        String worst = "";
        long worstLatency = -1;
        for (Kill kill : kills) {
            for (String run : kill.held()) {
                long latency = fromKillToClaim(List.of(new Kill(kill.worker(), kill.at(), Set.of(run))), lines).stream()
                        .findFirst()
                        .orElse(-1L);
                if (latency > worstLatency) {
                    worstLatency = latency;
                    worst = "run " + run + " held by " + kill.worker() + " killed at " + kill.at() + ", claimed "
                            + latency + " ms later: "
                            + lines.stream()
                                    .filter(line -> line.contains(" " + run + " "))
                                    .toList();
                }
            }
        }
        return worst;
    }

    static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        var sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private long killGap() {
        return Duration.ofMillis(KILL_MIN_MILLIS + random.nextLong(KILL_MAX_MILLIS - KILL_MIN_MILLIS))
                .toNanos();
    }

    /** A worker killed at {@code at} (epoch ms) while it held {@code held}. */
    private record Kill(String worker, long at, Set<String> held) {}
}
