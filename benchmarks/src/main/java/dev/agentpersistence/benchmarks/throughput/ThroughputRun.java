package dev.agentpersistence.benchmarks.throughput;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One measurement: {@code threads} threads share one provider and {@code agents} agents (agent i belongs to thread i
 * mod threads); for {@code duration} each thread saves the next version of its agents in turn, each save followed by a
 * latest read of that agent. Every call's latency is kept.
 */
final class ThroughputRun {
    private final int threads;
    private final int agents;
    private final Duration duration;
    private final List<Message> history = Fixtures.history(10);

    ThroughputRun(int threads, int agents, Duration duration) {
        this.threads = threads;
        this.agents = agents;
        this.duration = duration;
    }

    /** The figures of one run over {@code provider}; agent ids start with {@code prefix}. */
    Result measure(PersistenceStorageProvider<CheckpointFilter> provider, String prefix) throws Exception {
        for (int i = 0; i < agents; i++) {
            provider.saveCheckpoint(prefix + i, Fixtures.checkpoint(prefix + i, 0, history));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var start = new CountDownLatch(1);
            var work = new ArrayList<Future<long[][]>>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                work.add(pool.submit(() -> {
                    start.await();
                    return loop(provider, prefix, thread);
                }));
            }
            long begin = System.nanoTime();
            start.countDown();
            var saves = new ArrayList<long[]>();
            var latests = new ArrayList<long[]>();
            for (Future<long[][]> future : work) {
                long[][] latencies = future.get();
                saves.add(latencies[0]);
                latests.add(latencies[1]);
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            return new Result(threads, merge(saves), merge(latests), seconds);
        } finally {
            pool.shutdownNow();
        }
    }

    private long[][] loop(PersistenceStorageProvider<CheckpointFilter> provider, String prefix, int thread) {
        var mine = new ArrayList<String>();
        for (int i = thread; i < agents; i += threads) {
            mine.add(prefix + i);
        }
        long[] versions = new long[mine.size()];
        var saves = new LongList();
        var latests = new LongList();
        long end = System.nanoTime() + duration.toNanos();
        for (int turn = 0; System.nanoTime() < end; turn = (turn + 1) % mine.size()) {
            String agentId = mine.get(turn);
            long version = ++versions[turn];
            long t0 = System.nanoTime();
            provider.saveCheckpoint(agentId, Fixtures.checkpoint(agentId, version, history));
            long t1 = System.nanoTime();
            if (provider.getLatestCheckpoint(agentId).orElseThrow().version() != version) {
                throw new IllegalStateException("latest of " + agentId + " is not version " + version);
            }
            long t2 = System.nanoTime();
            saves.add(t1 - t0);
            latests.add(t2 - t1);
        }
        return new long[][] {saves.toArray(), latests.toArray()};
    }

    private static long[] merge(List<long[]> parts) {
        long[] all = parts.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    /** Sorted latencies (nanoseconds) of every save and latest, and the wall time of the run. */
    record Result(int threads, long[] saves, long[] latests, double seconds) {
        double savesPerSecond() {
            return saves.length / seconds;
        }

        static double millis(long[] sorted, double quantile) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
        }
    }

    /** A growable array of longs (latencies are kept without boxing). */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
