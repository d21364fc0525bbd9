package dev.agentpersistence.pipeline;

import dev.agentpersistence.Identifiers;
import dev.agentpersistence.lease.Lease;
import dev.agentpersistence.lease.LeaseGrant;
import dev.agentpersistence.lease.LeaseHeldException;
import dev.agentpersistence.lease.LeaseLostException;
import dev.agentpersistence.lease.Leases;
import dev.agentpersistence.pipeline.internal.RunQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Worker threads that run a pipeline's queued runs, in this JVM and in any number of others on the same store.
 *
 * <p>{@link #submit} puts a run in the pipeline's durable queue, kept in the pipeline's storage. Every worker thread
 * takes the oldest runnable run whose lease it can get ({@link Leases}: one live owner per run), runs it with
 * {@link Pipeline#run} (or {@link Pipeline#resume} with an answer given through {@link PipelineQueue#answer}), renews
 * the lease while the run works, writes the outcome to the queue and gives the lease back (a completed run's lease just
 * runs out: no worker takes it again). A worker that dies (a crash, a kill) stops renewing; once its lease ran out any
 * other worker takes the run and resumes it from its newest checkpoint, undoing the dead attempt's journaled tool calls
 * first, as after any crash: recovery needs no call. A failed run is tried again after the {@link Builder#retryPolicy
 * retry policy}'s backoff, persisted in the queue; a run that asks a question waits until {@link PipelineQueue#answer}
 * is called from any process.
 *
 * <p>{@link #close()} stops taking runs, interrupts the runs in flight (their nodes are rolled back and their
 * checkpoints kept, see {@link Pipeline#runAsync}) and gives their leases back at once, so another worker continues
 * them without waiting for the leases to run out.
 *
 * @param <S> the pipeline state type
 */
public final class PipelineWorkers<S> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineWorkers.class);

    private final Pipeline<S> pipeline;
    private final PipelineQueue queue;
    private final Leases leases;
    private final String workerId;
    private final int threads;
    private final Duration leaseTime;
    private final Duration pollInterval;
    private final RetryPolicy retryPolicy;
    private final int maxRunning;
    private final Clock clock;
    private final List<WorkerListener> listeners;
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
    private final Map<String, Lease> inFlight = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewals;
    private volatile boolean started;
    private volatile boolean closed;

    private PipelineWorkers(Builder<S> builder) {
        this.pipeline = builder.pipeline;
        this.clock = builder.clock;
        var storage = pipeline.persistence().storage();
        this.queue = PipelineQueue.of(storage, pipeline.name(), clock);
        this.leases = Leases.of(storage, clock);
        this.workerId = builder.workerId;
        this.threads = builder.threads;
        this.leaseTime = builder.leaseTime;
        this.pollInterval = builder.pollInterval;
        this.retryPolicy = builder.retryPolicy;
        this.maxRunning = builder.maxRunning;
        this.listeners = List.copyOf(builder.listeners);
        this.renewals = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "pipeline-workers-" + pipeline.name() + "-leases");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Workers for {@code pipeline}, whose storage keeps the queue and the leases. */
    public static <S> Builder<S> builder(Pipeline<S> pipeline) {
        return new Builder<>(Objects.requireNonNull(pipeline, "pipeline"));
    }

    /**
     * Puts run {@code runId} in the queue with {@code input}; a run already in the queue is not submitted again.
     *
     * @return whether it was added
     * @throws dev.agentpersistence.InvalidIdentifierException when the run id is not valid or too long for the queue
     * @throws IllegalArgumentException when the pipeline's codec cannot encode {@code input}
     */
    public boolean submit(String runId, S input) {
        Objects.requireNonNull(input, "input");
        return queue.submit(runId, pipeline.codec().encode(input));
    }

    /** The durable queue these workers take runs from: listing, answers, cancelling and re-queueing. */
    public PipelineQueue queue() {
        return queue;
    }

    /** The runs in the queue ({@link PipelineQueue#runs()}). */
    public List<QueuedRun> runs() {
        return queue.runs();
    }

    /** Starts the worker threads; they poll the queue until {@link #close()}. */
    public synchronized PipelineWorkers<S> start() {
        if (closed) {
            throw new IllegalStateException("these workers were closed");
        }
        if (started) {
            return this;
        }
        started = true;
        for (int i = 0; i < threads; i++) {
            String owner = workerId + "#" + i;
            Thread thread = new Thread(() -> work(owner), "pipeline-workers-" + pipeline.name() + "-" + i);
            thread.setDaemon(true);
            workers.add(thread);
            thread.start();
        }
        return this;
    }

    /** This worker's id; each thread holds leases as {@code workerId + "#" + thread number}. */
    public String workerId() {
        return workerId;
    }

    /**
     * Stops taking runs, interrupts the runs in flight, waits up to {@code timeout} for them to stop and gives their
     * leases back.
     */
    public void close(Duration timeout) {
        closed = true;
        workers.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : workers) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        renewals.shutdownNow();
        inFlight.values().forEach(this::releaseQuietly);
    }

    /** {@link #close(Duration)} with 30 seconds. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    private void work(String owner) {
        while (!closed) {
            boolean worked;
            try {
                worked = runNext(owner);
            } catch (RuntimeException e) {
                LOG.warn(
                        "Worker {} of pipeline '{}' could not read its queue: {}",
                        owner,
                        pipeline.name(),
                        e.toString());
                worked = false;
            }
            if (!worked && !closed) {
                try {
                    Thread.sleep(pollInterval.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Runs the oldest runnable run this worker can lease: first the oldest the queue showed when last read (no read
     * while earlier runs are left), else the oldest of those it shows now, which a native queue claims for this worker
     * (held from other claimers for a lease time); {@code false} when there was none. Only one candidate is taken from
     * the last read, which other workers may have made stale.
     */
    private boolean runNext(String owner) {
        List<RunQueue.Run> lastRead = queue.log().lastReadRunnable(clock.instant());
        Instant now = clock.instant();
        int depth = queue.log().depth(now); // before this poll's claim, which holds the run it takes
        return !lastRead.isEmpty() && runNext(owner, now, depth, lastRead.subList(0, 1))
                || runNext(owner, now, depth, queue.log().claim(now, now.plus(leaseTime)));
    }

    private boolean runNext(String owner, Instant now, int depth, List<RunQueue.Run> runnable) {
        publish(new WorkerEvent.QueuePolled(pipeline.name(), owner, now, depth, inFlight.size()));
        if (runnable.isEmpty()) {
            return false;
        }
        Optional<Lease> slot = maxRunning > 0 ? slot(owner) : Optional.empty();
        if (maxRunning > 0 && slot.isEmpty()) {
            unhold(runnable); // a claim this worker cannot use now goes back at once
            return false;
        }
        try {
            for (int i = 0; i < runnable.size(); i++) {
                RunQueue.Run candidate = runnable.get(i);
                if (closed) {
                    unhold(runnable.subList(i, runnable.size()));
                    return false;
                }
                LeaseGrant grant;
                try {
                    grant = leases.grant(leaseName(candidate.runId()), owner, leaseTime);
                } catch (LeaseHeldException e) {
                    hold(candidate.runId(), e.expiresAt()); // claimers pass it over while its holder's lease lasts
                    continue;
                }
                Lease lease = grant.lease();
                hold(candidate.runId(), lease.expiresAt());
                Optional<Lease> previous = grant.previous();
                Optional<RunQueue.Run> fresh = queue.log().run(candidate.runId());
                if (fresh.isEmpty() || !fresh.get().isRunnable(clock.instant())) {
                    hold(candidate.runId(), clock.instant());
                    releaseQuietly(lease); // another worker finished it between our read and our lease
                    continue;
                }
                publish(new WorkerEvent.RunClaimed(
                        pipeline.name(), owner, clock.instant(), candidate.runId(), recovery(fresh.get(), previous)));
                execute(fresh.get(), lease, slot, owner);
                return true;
            }
            return false;
        } finally {
            slot.ifPresent(this::releaseQuietly);
        }
    }

    /**
     * One of the pipeline's {@link Builder#maxRunning} slots, each a lease of its own, so that no more runs than slots
     * run at once over all workers; empty when every slot is held.
     */
    private Optional<Lease> slot(String owner) {
        for (int i = 0; i < maxRunning; i++) {
            try {
                return Optional.of(leases.acquire(pipeline.name() + "/#slot-" + i, owner, leaseTime));
            } catch (LeaseHeldException e) {
                // held: try the next one
            }
        }
        return Optional.empty();
    }

    /**
     * How long after the end of another worker's lease this claim came, when that worker left the run unfinished: it
     * died (the run shows no outcome since it was submitted or answered) or handed it back on close.
     */
    private Optional<Duration> recovery(RunQueue.Run run, Optional<Lease> previous) {
        boolean unfinished = run.status() == RunQueue.Kind.SUBMITTED
                || run.status() == RunQueue.Kind.ANSWERED
                || run.status() == RunQueue.Kind.RETRY && "interrupted".equals(run.detail());
        if (previous.isEmpty() || !unfinished) {
            return Optional.empty();
        }
        Duration after = Duration.between(previous.get().expiresAt(), clock.instant());
        return Optional.of(after.isNegative() ? Duration.ZERO : after);
    }

    private void execute(RunQueue.Run run, Lease lease, Optional<Lease> slot, String owner) {
        inFlight.put(run.runId(), lease);
        var renewal = new Renewal(lease, slot.orElse(null), owner);
        long period = Math.max(1, leaseTime.toMillis() / 3);
        renewal.future = renewals.scheduleAtFixedRate(renewal, period, period, TimeUnit.MILLISECONDS);
        Optional<RunQueue.Run> recorded = Optional.empty();
        try {
            PipelineResult<S> result = run.answer() != null && run.status() == RunQueue.Kind.ANSWERED
                    ? resumeOrRun(run)
                    : pipeline.run(run.runId(), pipeline.codec().decode(run.input()));
            recorded = record(run, result, renewal);
        } catch (RuntimeException e) {
            LOG.warn("Run '{}' of pipeline '{}' ended with {}", run.runId(), pipeline.name(), e.toString());
            recorded = recordFailure(run, e.toString(), renewal);
        } finally {
            renewal.future.cancel(false);
            inFlight.remove(run.runId());
            if (recorded.map(now -> now.status() != RunQueue.Kind.COMPLETED).orElse(true)) {
                hold(run.runId(), clock.instant()); // claimable again at once, as its lease is given back
                releaseQuietly(renewal.lease); // a completed run is never taken again: its lease just runs out
            }
            publish(new WorkerEvent.RunReleased(
                    pipeline.name(), owner, clock.instant(), run.runId(), outcome(run, recorded)));
        }
    }

    /** Where the run stands after its try: as this worker recorded it, or else as the queue says now. */
    private QueuedRun.Status outcome(RunQueue.Run run, Optional<RunQueue.Run> recorded) {
        try {
            return recorded.or(() -> queue.log().run(run.runId()))
                    .map(now -> PipelineQueue.status(now, false))
                    .orElse(QueuedRun.Status.QUEUED);
        } catch (RuntimeException e) {
            return QueuedRun.Status.QUEUED;
        }
    }

    private void publish(WorkerEvent event) {
        for (WorkerListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn("Worker listener {} failed on {}: {}", listener, event, e.toString());
            }
        }
    }

    private PipelineResult<S> resumeOrRun(RunQueue.Run run) {
        try {
            return pipeline.resume(run.runId(), run.answer());
        } catch (RunNotWaitingException e) {
            return pipeline.run(run.runId(), pipeline.codec().decode(run.input())); // the answer was saved already
        }
    }

    /**
     * Appends the try's outcome. A completion or a question needs no look at the lease first: the run's own checkpoints
     * are compare-and-set, so a try that saved its end (or its question) was not overtaken by a new owner; a failure is
     * recorded only while the lease is still held, so that a worker that lost the run cannot re-queue or fail it under
     * its new owner.
     *
     * @return the run as recorded, or empty when nothing was appended
     */
    private Optional<RunQueue.Run> record(RunQueue.Run run, PipelineResult<S> result, Renewal renewal) {
        return switch (result.status()) {
            case COMPLETED ->
                append(run, new RunQueue.Change(RunQueue.Kind.COMPLETED, null, run.attempt(), null, null));
            case WAITING -> append(run, new RunQueue.Change(RunQueue.Kind.WAITING, null, run.attempt(), null, null));
            case FAILED -> {
                PipelineFailure failure = result.failure().orElseThrow();
                if (failure.reason() != PipelineFailure.Reason.INTERRUPTED) {
                    yield recordFailure(run, failure.describe(), renewal);
                }
                // handed back (close): the next worker goes on at once, no retry used up
                yield stillHeld(renewal)
                        ? append(
                                run, new RunQueue.Change(RunQueue.Kind.RETRY, null, run.attempt(), null, "interrupted"))
                        : Optional.empty();
            }
        };
    }

    private Optional<RunQueue.Run> recordFailure(RunQueue.Run run, String detail, Renewal renewal) {
        if (!stillHeld(renewal)) {
            return Optional.empty();
        }
        int retry = run.attempt() + 1;
        if (retry > retryPolicy.maxRetries()) {
            return append(run, new RunQueue.Change(RunQueue.Kind.FAILED, null, run.attempt(), null, detail));
        }
        Instant notBefore = clock.instant().plus(retryPolicy.backoff().delayBeforeRetry(retry));
        return append(run, new RunQueue.Change(RunQueue.Kind.RETRY, null, retry, notBefore, detail));
    }

    /**
     * Appends the outcome of the try of {@code claimed}, decided on the queue's head: only while the run is still as it
     * was claimed, or when an operator cancelled it during the try and the try completed it (the run did complete). An
     * outcome another writer made stale appends nothing.
     *
     * @return the run as the outcome leaves it, or empty when nothing was appended
     */
    private Optional<RunQueue.Run> append(RunQueue.Run claimed, RunQueue.Change outcome) {
        Optional<RunQueue.Run> appended = queue.log().update(claimed.runId(), now -> {
            if (now.isPresent()
                    && (now.get().version() == claimed.version()
                            || now.get().status() == RunQueue.Kind.CANCELLED
                                    && outcome.kind() == RunQueue.Kind.COMPLETED)) {
                return RunQueue.Decision.append(
                        outcome, Optional.of(now.get().after(outcome, now.get().version())));
            }
            return RunQueue.Decision.keep(Optional.empty());
        });
        if (appended.isEmpty()) {
            LOG.info(
                    "Run '{}' of pipeline '{}' changed in the queue during its try; its outcome {} was not recorded",
                    claimed.runId(),
                    pipeline.name(),
                    outcome.kind());
        }
        return appended;
    }

    /** Whether this worker still holds the run's lease: a worker that lost it writes no outcome. */
    private boolean stillHeld(Renewal renewal) {
        try {
            renewal.lease = leases.renew(renewal.lease, leaseTime);
            hold(runIdOf(renewal.lease), renewal.lease.expiresAt());
            return true;
        } catch (LeaseLostException e) {
            LOG.warn(
                    "Lost the lease of '{}' while running it; its new owner records the outcome", renewal.lease.name());
            return false;
        }
    }

    /** Ends the holds of claimed runs this worker does not try. */
    private void unhold(List<RunQueue.Run> runs) {
        Instant now = clock.instant();
        runs.forEach(run -> hold(run.runId(), now));
    }

    /** Holds the run from other claimers of a native queue until {@code until}; a hint, so a failure is only logged. */
    private void hold(String runId, Instant until) {
        try {
            queue.log().hold(runId, until);
        } catch (RuntimeException e) {
            LOG.debug("Could not hold run '{}' until {}: {}", runId, until, e.toString());
        }
    }

    private void releaseQuietly(Lease lease) {
        try {
            leases.release(lease);
        } catch (RuntimeException e) {
            LOG.debug("Could not give back the lease of '{}': {}", lease.name(), e.toString());
        }
    }

    private String leaseName(String runId) {
        return queue.leaseName(runId);
    }

    /** Renews one run's lease while it works. */
    private final class Renewal implements Runnable {
        final String owner;
        volatile Lease lease;
        volatile Lease slot;
        volatile ScheduledFuture<?> future;

        Renewal(Lease lease, Lease slot, String owner) {
            this.lease = lease;
            this.slot = slot;
            this.owner = owner;
        }

        @Override
        public void run() {
            try {
                if (slot != null) {
                    slot = leases.renew(slot, leaseTime);
                }
                lease = leases.renew(lease, leaseTime);
                hold(runIdOf(lease), lease.expiresAt());
                inFlight.computeIfPresent(runIdOf(lease), (id, old) -> lease);
                publish(new WorkerEvent.LeaseRenewed(pipeline.name(), owner, clock.instant(), runIdOf(lease)));
            } catch (LeaseLostException e) {
                LOG.warn("Lost the lease of '{}': {}", lease.name(), e.getMessage());
                publish(new WorkerEvent.LeaseLost(
                        pipeline.name(), owner, clock.instant(), runIdOf(lease), e.getMessage()));
                future.cancel(false);
            } catch (RuntimeException e) {
                LOG.warn("Could not renew the lease of '{}' (tried again): {}", lease.name(), e.toString());
            }
        }
    }

    private String runIdOf(Lease lease) {
        return lease.name().substring(pipeline.name().length() + 1);
    }

    /** Configures {@link PipelineWorkers}. */
    public static final class Builder<S> {
        private final Pipeline<S> pipeline;
        private String workerId = "worker-" + UUID.randomUUID();
        private int threads = 1;
        private Duration leaseTime = Duration.ofSeconds(30);
        private Duration pollInterval = Duration.ofMillis(500);
        private RetryPolicy retryPolicy = RetryPolicy.noRetries();
        private int maxRunning;
        private Clock clock = Clock.systemUTC();
        private final List<WorkerListener> listeners = new ArrayList<>();

        private Builder(Pipeline<S> pipeline) {
            this.pipeline = pipeline;
        }

        /** This worker's id, unique among the workers of a store; default a random one. */
        public Builder<S> workerId(String workerId) {
            this.workerId = Identifiers.requireValid(workerId, "workerId");
            return this;
        }

        /** How many runs this worker runs at once; default 1. */
        public Builder<S> threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1 but was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /**
         * How long a run's lease lasts without renewal (it is renewed every third of it): the time after which another
         * worker takes over the run of a worker that died; default 30 s.
         */
        public Builder<S> leaseTime(Duration leaseTime) {
            requirePositive(leaseTime, "leaseTime");
            this.leaseTime = leaseTime;
            return this;
        }

        /** How long an idle worker thread waits before it reads the queue again; default 500 ms. */
        public Builder<S> pollInterval(Duration pollInterval) {
            requirePositive(pollInterval, "pollInterval");
            this.pollInterval = pollInterval;
            return this;
        }

        /** How often, and after what wait, a failed run is queued again; default {@link RetryPolicy#noRetries()}. */
        public Builder<S> retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /** The most runs of this pipeline running at once over all workers of the store; default 0, no limit. */
        public Builder<S> maxRunning(int maxRunning) {
            if (maxRunning < 0) {
                throw new IllegalArgumentException("maxRunning must be >= 0 but was " + maxRunning);
            }
            this.maxRunning = maxRunning;
            return this;
        }

        /** The clock leases and retry times are judged by; default {@link Clock#systemUTC()}. */
        public Builder<S> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Adds a listener for the workers' events ({@link PipelineWorkersMetrics} records them as meters). */
        public Builder<S> listener(WorkerListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** The workers, not started yet ({@link PipelineWorkers#start()}). */
        public PipelineWorkers<S> build() {
            return new PipelineWorkers<>(this);
        }

        private static void requirePositive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive but was " + duration);
            }
        }
    }
}
