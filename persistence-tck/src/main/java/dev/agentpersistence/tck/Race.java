package dev.agentpersistence.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** Runs one task on many threads released at the same instant and reports how each ended. */
final class Race {
    private Race() {}

    /** How one racer ended: {@code failure} is {@code null} on success. */
    record Outcome(int racer, Throwable failure) {
        boolean succeeded() {
            return failure == null;
        }
    }

    /** Runs {@code task(racer)} on {@code racers} threads at once and waits up to a minute for all. */
    static List<Outcome> run(int racers, IntConsumer task) {
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            var ready = new CountDownLatch(racers);
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<Outcome>>();
            for (int i = 0; i < racers; i++) {
                int racer = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    start.await();
                    try {
                        task.accept(racer);
                        return new Outcome(racer, null);
                    } catch (RuntimeException | Error e) {
                        return new Outcome(racer, e);
                    }
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("racers did not start within 30 s");
            }
            start.countDown();
            var outcomes = new ArrayList<Outcome>();
            for (var future : futures) {
                outcomes.add(future.get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while racing", e);
        } catch (Exception e) {
            throw new AssertionError("a racer did not finish: " + e, e);
        } finally {
            pool.shutdownNow();
        }
    }
}
