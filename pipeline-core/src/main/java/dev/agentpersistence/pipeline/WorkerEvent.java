package dev.agentpersistence.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What {@link PipelineWorkers} did, delivered to its {@link WorkerListener}s. */
public sealed interface WorkerEvent {
    /** The pipeline whose workers sent it. */
    String pipeline();

    /** The worker thread's owner id ({@code workerId + "#" + thread}). */
    String worker();

    /** When it happened, by the workers' clock. */
    Instant at();

    /**
     * A worker thread read the queue.
     *
     * @param runnable runs waiting for a worker now: runnable and held by no claim (a queue kept as a log of
     *     checkpoints holds no claims, so there runs in flight count too; a native queue's count may be up to a second
     *     old)
     * @param inFlight runs this worker runs now
     */
    record QueuePolled(String pipeline, String worker, Instant at, int runnable, int inFlight) implements WorkerEvent {}

    /**
     * A worker took a run's lease and starts (or continues) it.
     *
     * @param recoveredAfter when another worker held the run's lease before and did not finish the run (it died, or
     *     handed the run back): the time from the end of that lease to this claim
     */
    record RunClaimed(String pipeline, String worker, Instant at, String runId, Optional<Duration> recoveredAfter)
            implements WorkerEvent {}

    /** A run's lease was renewed while the run works. */
    record LeaseRenewed(String pipeline, String worker, Instant at, String runId) implements WorkerEvent {}

    /** A worker lost a run's lease (it ran out and another worker took it); it records no outcome. */
    record LeaseLost(String pipeline, String worker, Instant at, String runId, String reason) implements WorkerEvent {}

    /** A worker finished its try of a run and gave the lease back; {@code outcome} is what the queue now says. */
    record RunReleased(String pipeline, String worker, Instant at, String runId, QueuedRun.Status outcome)
            implements WorkerEvent {}
}
