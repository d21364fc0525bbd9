package dev.agentpersistence.pipeline;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A run in the durable queue of {@link PipelineWorkers}, as listed by {@link PipelineWorkers#runs()}.
 *
 * @param runId the run's id
 * @param status where it stands
 * @param retries how many times it was re-queued after failing
 * @param notBefore for a run waiting to be retried, the earliest time a worker takes it again
 * @param holder the worker holding the run's lease, when one holds a live lease
 * @param detail the last failure's summary or the cancellation's reason, if any
 */
public record QueuedRun(
        String runId,
        Status status,
        int retries,
        Optional<Instant> notBefore,
        Optional<String> holder,
        Optional<String> detail) {

    /** Where a queued run stands. */
    public enum Status {
        /** Submitted (or answered), waiting for a worker. */
        QUEUED,
        /** A worker holds it. */
        RUNNING,
        /** It failed and waits for its next try. */
        RETRY_WAIT,
        /** It asked a question; {@link PipelineQueue#answer} continues it. */
        WAITING,
        COMPLETED,
        /** It failed and has no retries left. */
        FAILED,
        CANCELLED
    }

    /** Checks the components. */
    public QueuedRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(notBefore, "notBefore");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(detail, "detail");
    }
}
