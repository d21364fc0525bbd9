package dev.agentpersistence.s3.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A request started on another thread so that it overlaps with the caller's own requests (each S3
 * request is a round trip; independent ones need not wait for each other). The caller always
 * {@link #join}s it before its next dependent step, so no request outlives the operation that made it.
 *
 * <p>The threads are daemons shared by every provider of the JVM, at most {@value #MAX_THREADS}, and
 * end after {@value #IDLE_SECONDS} s without work; when all are busy the caller runs the request
 * itself (the requests are then simply sequential).
 */
final class ConcurrentRequest<T> {
    private static final int MAX_THREADS = 64;
    private static final int IDLE_SECONDS = 30;
    private static final Executor THREADS = threads();

    private final CompletableFuture<T> result;

    private ConcurrentRequest(CompletableFuture<T> result) {
        this.result = result;
    }

    /** Starts {@code request}. */
    static <T> ConcurrentRequest<T> start(Supplier<T> request) {
        return new ConcurrentRequest<>(CompletableFuture.supplyAsync(Objects.requireNonNull(request, "request"), THREADS));
    }

    /**
     * Waits for the request (uninterruptibly: it is bounded by the client's timeouts); its result, or
     * what it threw, rethrown as it was thrown.
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

    private static Executor threads() {
        var count = new AtomicInteger();
        var pool = new ThreadPoolExecutor(0, MAX_THREADS, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            var thread = new Thread(task, "agent-persistence-s3-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
        return pool;
    }
}
