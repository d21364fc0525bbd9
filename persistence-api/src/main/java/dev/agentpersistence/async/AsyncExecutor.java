package dev.agentpersistence.async;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded executor behind the {@code CompletableFuture} views ({@link AsyncStorageProvider},
 * {@link AsyncAgentPersistence}) and non-blocking pipeline runs.
 *
 * <p><b>Threading.</b> Every call runs the blocking operation on a thread of this executor, never on the caller's
 * thread: on a virtual thread per call when the JVM has them (Java 21+, detected reflectively, since the baseline is
 * Java 17), else on one of {@code maxConcurrency} daemon platform threads named {@code agent-persistence-async-<n>}. At
 * most {@code maxConcurrency} calls run at once either way, which also bounds the connections or files a provider has
 * open for async callers. Dependent stages ({@code thenApply} …) run on the thread that completed the call (or the
 * caller's, when the future is already complete), so keep them short or pass your own executor to the {@code …Async}
 * variants.
 *
 * <p><b>Back-pressure.</b> At most {@code maxConcurrency + maxQueued} calls are admitted at a time; one more returns a
 * future already failed with {@link AsyncRejectedException} (nothing is done), so a caller producing faster than the
 * store absorbs is told at once instead of queueing without bound.
 *
 * <p><b>Cancellation.</b> Cancelling a returned future before its call started means it never runs; cancelling it while
 * running interrupts the thread running it (a provider may or may not stop; a save that completes anyway stays saved,
 * as with any interrupted blocking call).
 *
 * <p><b>Errors.</b> A future fails with exactly the exception the blocking call threw (the typed
 * {@link dev.agentpersistence.PersistenceException}s, {@link IllegalArgumentException}, …);
 * {@link CompletableFuture#join()} wraps it in a {@link java.util.concurrent.CompletionException} and
 * {@link CompletableFuture#get()} in an {@link java.util.concurrent.ExecutionException}, whose cause it is.
 * {@link Error}s complete the future too.
 *
 * <p>Thread-safe. {@link #close()} stops admitting calls and waits for running ones.
 */
public final class AsyncExecutor implements AutoCloseable {
    /** Calls running at once by default. */
    public static final int DEFAULT_MAX_CONCURRENCY = 16;
    /** Calls waiting for a thread by default, beyond those running. */
    public static final int DEFAULT_MAX_QUEUED = 1024;

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final ExecutorService threads;
    private final boolean virtual;
    private final Semaphore admitted;
    private final Semaphore running;
    private final int maxConcurrency;
    private final int maxQueued;
    private volatile boolean closed;

    private AsyncExecutor(int maxConcurrency, int maxQueued, boolean preferVirtualThreads) {
        if (maxConcurrency < 1 || maxQueued < 0) {
            throw new IllegalArgumentException(
                    "need maxConcurrency >= 1 and maxQueued >= 0 but got " + maxConcurrency + " and " + maxQueued);
        }
        this.maxConcurrency = maxConcurrency;
        this.maxQueued = maxQueued;
        this.admitted = new Semaphore(maxConcurrency + maxQueued);
        this.running = new Semaphore(maxConcurrency);
        ExecutorService virtualThreads = preferVirtualThreads ? virtualThreadPerTask() : null;
        this.virtual = virtualThreads != null;
        this.threads = virtual
                ? virtualThreads
                : Executors.newFixedThreadPool(maxConcurrency, task -> {
                    var thread = new Thread(task, "agent-persistence-async-" + THREADS.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * {@value #DEFAULT_MAX_CONCURRENCY} calls at once, {@value #DEFAULT_MAX_QUEUED} queued, virtual threads when
     * available.
     */
    public static AsyncExecutor create() {
        return create(DEFAULT_MAX_CONCURRENCY, DEFAULT_MAX_QUEUED);
    }

    /** An executor running at most {@code maxConcurrency} calls at once with {@code maxQueued} more waiting. */
    public static AsyncExecutor create(int maxConcurrency, int maxQueued) {
        return new AsyncExecutor(maxConcurrency, maxQueued, true);
    }

    /** As {@link #create(int, int)} but always on platform threads. */
    public static AsyncExecutor platformThreads(int maxConcurrency, int maxQueued) {
        return new AsyncExecutor(maxConcurrency, maxQueued, false);
    }

    /** Whether calls run on virtual threads. */
    public boolean usesVirtualThreads() {
        return virtual;
    }

    public int maxConcurrency() {
        return maxConcurrency;
    }

    public int maxQueued() {
        return maxQueued;
    }

    /**
     * Runs {@code call} on this executor.
     *
     * @param operation names the call in a rejection message, e.g. {@code "saveCheckpoint(agent-1)"}
     * @return a future of its result; already failed with {@link AsyncRejectedException} when refused
     */
    public <T> CompletableFuture<T> submit(String operation, Callable<T> call) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(call, "call");
        if (closed) {
            return CompletableFuture.failedFuture(
                    new AsyncRejectedException(operation + " refused: the executor is closed"));
        }
        if (!admitted.tryAcquire()) {
            return CompletableFuture.failedFuture(new AsyncRejectedException(operation + " refused: " + maxConcurrency
                    + " calls running and " + maxQueued + " queued already (back-pressure)"));
        }
        var result = new CompletableFuture<T>();
        var started = new AtomicBoolean();
        final Future<?> task;
        try {
            task = threads.submit(() -> run(call, result, started));
        } catch (RejectedExecutionException e) {
            admitted.release();
            return CompletableFuture.failedFuture(
                    new AsyncRejectedException(operation + " refused: the executor is closed"));
        }
        result.whenComplete((value, error) -> {
            if (!result.isCancelled()) {
                return;
            }
            if (started.compareAndSet(false, true)) {
                admitted.release(); // cancelled before it started: it will never run
                task.cancel(false);
            } else {
                task.cancel(true);
            }
        });
        return result;
    }

    private <T> void run(Callable<T> call, CompletableFuture<T> result, AtomicBoolean started) {
        if (!started.compareAndSet(false, true)) {
            return; // cancelled before it started; the canceller released its admission
        }
        try {
            running.acquire();
            try {
                if (!result.isDone()) {
                    result.complete(call.call());
                }
            } finally {
                running.release();
            }
        } catch (Throwable e) {
            result.completeExceptionally(e);
        } finally {
            admitted.release();
        }
    }

    /** Stops admitting calls and waits up to 30 s for those admitted to finish. */
    @Override
    public void close() {
        closed = true;
        threads.shutdown();
        try {
            threads.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ExecutorService virtualThreadPerTask() {
        try {
            Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            return (ExecutorService) factory.invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // Java 17-20: no virtual threads
        }
    }

    @Override
    public String toString() {
        return "AsyncExecutor[" + (virtual ? "virtual" : "platform") + " threads, " + maxConcurrency + " running, "
                + maxQueued + " queued at most]";
    }
}
