package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/** Runs a body on several threads released together, and fails the test with whatever one of them threw. */
final class AllAtOnce {
    /** The work of one thread. */
    interface Body {
        void run(int thread) throws Exception;
    }

    private AllAtOnce() {}

    /** Runs {@code body} on {@code threads} threads that start at one barrier; waits up to 120 s for all. */
    static void run(int threads, Body body) throws Exception {
        var barrier = new CyclicBarrier(threads);
        var failures = new ConcurrentLinkedQueue<Throwable>();
        var futures = new ArrayList<CompletableFuture<Void>>();
        for (int thread = 0; thread < threads; thread++) {
            int index = thread;
            futures.add(CompletableFuture.runAsync(() -> {
                try {
                    barrier.await(30, TimeUnit.SECONDS);
                    body.run(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertThat(failures).isEmpty();
    }
}
