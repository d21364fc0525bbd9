package dev.agentpersistence.s3.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs the independent requests of one operation at the same time (each S3 request is a round trip; independent ones
 * need not wait for each other). The caller always {@link Pending#join}s a request before its next dependent step, so
 * no request outlives the operation that made it.
 *
 * <p>A backend owns one and closes it with itself. Its threads are daemons, at most {@value #MAX_THREADS}, and end
 * after {@value #IDLE_SECONDS} s without work; when all are busy, or after closing, the caller runs the request itself
 * (the requests are then simply sequential).
 */
final class OverlappedRequests implements AutoCloseable {
    private static final int MAX_THREADS = 64;
    private static final int IDLE_SECONDS = 30;

    /** {@code null}: every request runs in the caller at {@link #start}. */
    private final ExecutorService threads;

    private OverlappedRequests(ExecutorService threads) {
        this.threads = threads;
    }

    /** Requests run on a pool of daemon threads named after {@code owner}. */
    static OverlappedRequests pooled(String owner) {
        var count = new AtomicInteger();
        var pool = new ThreadPoolExecutor(
                0,
                MAX_THREADS,
                IDLE_SECONDS,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                task -> {
                    var thread = new Thread(task, owner + "-request-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                },
                (task, rejected) -> task.run()); // busy or closed: run in the caller, never drop a request
        return new OverlappedRequests(pool);
    }

    /** Requests run one after another in the caller (nothing overlaps). */
    static OverlappedRequests inline() {
        return new OverlappedRequests(null);
    }

    /** Starts {@code request}. */
    <T> Pending<T> start(Supplier<T> request) {
        Objects.requireNonNull(request, "request");
        if (threads == null) {
            CompletableFuture<T> done = new CompletableFuture<>();
            try {
                done.complete(request.get());
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
            return new Pending<>(done);
        }
        return new Pending<>(CompletableFuture.supplyAsync(request, threads));
    }

    /** Lets the threads end; later requests run in their callers. */
    @Override
    public void close() {
        if (threads != null) {
            threads.shutdown();
        }
    }

    /** A request started by {@link #start}. */
    static final class Pending<T> {
        private final CompletableFuture<T> result;

        private Pending(CompletableFuture<T> result) {
            this.result = result;
        }

        /**
         * Waits for the request (uninterruptibly: it is bounded by the client's timeouts); its result, or what it
         * threw, rethrown as it was thrown.
         */
        T join() {
            try {
                return result.join();
            } catch (CompletionException e) {
                throw rethrown(e.getCause());
            }
        }

        /** Waits for the request and ignores its outcome (its result is not needed, or an earlier failure wins). */
        void awaitQuietly(Throwable failure) {
            try {
                join();
            } catch (RuntimeException | Error e) {
                if (failure != null && failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }

        private static RuntimeException rethrown(Throwable cause) {
            if (cause instanceof RuntimeException runtime) {
                return runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            return new IllegalStateException(cause);
        }
    }
}
