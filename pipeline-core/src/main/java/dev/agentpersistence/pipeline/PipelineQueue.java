package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.lease.Lease;
import dev.agentpersistence.lease.Leases;
import dev.agentpersistence.pipeline.internal.RunQueue;
import dev.agentpersistence.pipeline.internal.RunStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The durable queue of one pipeline's runs, kept in a store: what {@link PipelineWorkers} take runs from, and what an
 * operator lists, answers, cancels and re-queues from any process (the command line's {@code runs} command), without
 * the pipeline's code. Inputs and answers are JSON: the pipeline's codec encodes and decodes them.
 */
public final class PipelineQueue {
    private final String pipeline;
    private final RunStore log;
    private final Leases leases;
    private final Clock clock;

    private PipelineQueue(PersistenceStorageProvider<?> storage, String pipeline, Clock clock) {
        this.pipeline = pipeline;
        this.log = RunStore.of(storage, pipeline, clock);
        this.leases = Leases.of(storage, clock);
        this.clock = clock;
    }

    /** The queue of pipeline {@code pipeline} in {@code storage}. */
    public static PipelineQueue of(PersistenceStorageProvider<?> storage, String pipeline, Clock clock) {
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(clock, "clock");
        return new PipelineQueue(storage, pipeline, clock);
    }

    /** The pipeline this queue holds runs of. */
    public String pipeline() {
        return pipeline;
    }

    /**
     * Puts run {@code runId} in the queue with {@code input} (the JSON form of the pipeline state); a run already in
     * the queue is not submitted again (of two callers submitting one run at once, exactly one adds it).
     *
     * @return whether it was added
     * @throws dev.agentpersistence.InvalidIdentifierException when the run id is not valid or too long for the queue
     */
    public boolean submit(String runId, JsonNode input) {
        leaseName(Identifiers.requireValid(runId, "runId"));
        Objects.requireNonNull(input, "input");
        return log.update(
                runId,
                run -> run.isPresent()
                        ? RunQueue.Decision.keep(false)
                        : RunQueue.Decision.append(
                                new RunQueue.Change(RunQueue.Kind.SUBMITTED, input, 0, null, null), true));
    }

    /**
     * Answers the question run {@code runId} waits on; a worker continues the run with it ({@link Pipeline#resume}). Of
     * two answers given at once, exactly one is taken.
     *
     * @return whether the run was waiting (and this answer was taken)
     */
    public boolean answer(String runId, JsonNode answer) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(answer, "answer");
        return log.update(
                runId,
                run -> run.isEmpty() || run.get().status() != RunQueue.Kind.WAITING
                        ? RunQueue.Decision.keep(false)
                        : RunQueue.Decision.append(
                                new RunQueue.Change(
                                        RunQueue.Kind.ANSWERED,
                                        answer,
                                        run.get().attempt(),
                                        null,
                                        null),
                                true));
    }

    /**
     * Takes a run out of the queue before a worker starts it again; a run a worker holds now finishes its current try,
     * and a try that completes leaves the run completed. A cancellation decided on a state another writer changed first
     * is decided again: one that loses to the run's completion cancels nothing.
     *
     * @return whether the run was in the queue and not finished when the cancellation was recorded
     */
    public boolean cancel(String runId, String reason) {
        Objects.requireNonNull(runId, "runId");
        return log.update(
                runId,
                run -> run.isEmpty() || RunQueue.isFinished(run.get().status())
                        ? RunQueue.Decision.keep(false)
                        : RunQueue.Decision.append(
                                new RunQueue.Change(
                                        RunQueue.Kind.CANCELLED, null, run.get().attempt(), null, reason),
                                true));
    }

    /**
     * Puts a failed or cancelled run back in the queue, with its retries counted from zero.
     *
     * @return whether the run was failed or cancelled (and is queued again)
     */
    public boolean retry(String runId) {
        Objects.requireNonNull(runId, "runId");
        return log.update(
                runId,
                run -> run.isEmpty()
                                || run.get().status() != RunQueue.Kind.FAILED
                                        && run.get().status() != RunQueue.Kind.CANCELLED
                        ? RunQueue.Decision.keep(false)
                        : RunQueue.Decision.append(
                                new RunQueue.Change(RunQueue.Kind.RETRY, null, 0, null, "re-queued"), true));
    }

    /**
     * The runs in the queue, in the order they were submitted, with the holder of each live lease; of the finished runs
     * the queue keeps the newest thousand.
     */
    public List<QueuedRun> runs() {
        Instant now = clock.instant();
        var result = new ArrayList<QueuedRun>();
        for (RunQueue.Run run : log.runs()) {
            Optional<String> holder = isFinished(run.status())
                    ? Optional.empty()
                    : leases.current(leaseName(run.runId()))
                            .filter(lease -> lease.isLiveAt(now))
                            .map(Lease::owner);
            result.add(new QueuedRun(
                    run.runId(),
                    status(run, holder.isPresent()),
                    run.attempt(),
                    Optional.ofNullable(run.status() == RunQueue.Kind.RETRY ? run.notBefore() : null),
                    holder,
                    Optional.ofNullable(run.detail())));
        }
        return result;
    }

    /**
     * The newest record of run {@code runId}'s lease, live or run out: who holds or last held the run, with which
     * fencing token, until when. Empty when no worker ever claimed the run. Only reads.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when the run id is not valid or too long for the queue
     */
    public Optional<Lease> lease(String runId) {
        return leases.current(leaseName(Identifiers.requireValid(runId, "runId")));
    }

    RunStore log() {
        return log;
    }

    /** The name of run {@code runId}'s lease. */
    String leaseName(String runId) {
        String name = pipeline + "/" + runId;
        Leases.NAMESPACE.agentId(name, "pipeline name and runId");
        return name;
    }

    static boolean isFinished(RunQueue.Kind status) {
        return RunQueue.isFinished(status);
    }

    static QueuedRun.Status status(RunQueue.Run run, boolean leased) {
        return switch (run.status()) {
            case COMPLETED -> QueuedRun.Status.COMPLETED;
            case FAILED -> QueuedRun.Status.FAILED;
            case CANCELLED -> QueuedRun.Status.CANCELLED;
            case WAITING -> QueuedRun.Status.WAITING;
            case RETRY ->
                leased
                        ? QueuedRun.Status.RUNNING
                        : run.notBefore() == null ? QueuedRun.Status.QUEUED : QueuedRun.Status.RETRY_WAIT;
            case SUBMITTED, ANSWERED -> leased ? QueuedRun.Status.RUNNING : QueuedRun.Status.QUEUED;
        };
    }

    @Override
    public String toString() {
        return "PipelineQueue[" + pipeline + "]";
    }
}
