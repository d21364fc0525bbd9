package dev.agentpersistence.pipeline;

import dev.agentpersistence.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Pipeline#run} ended.
 *
 * <p>{@link #state()} is the final state of a completed run; for a failed run it is the state
 * before the failing node's action (its failed attempts rolled back), which is also what its
 * newest checkpoint holds.
 *
 * @param <S> the pipeline state type
 */
public final class PipelineResult<S> {

    /** Whether the run got through every node. */
    public enum Status { COMPLETED, FAILED }

    private final String pipeline;
    private final String runId;
    private final Status status;
    private final S state;
    private final List<Message> messageHistory;
    private final List<String> executedNodes;
    private final String resumedAfter;
    private final PipelineFailure failure;
    private final boolean alreadyCompleted;

    PipelineResult(String pipeline, String runId, S state, List<Message> messageHistory, List<String> executedNodes,
                   String resumedAfter, PipelineFailure failure, boolean alreadyCompleted) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.runId = Objects.requireNonNull(runId, "runId");
        this.status = failure == null ? Status.COMPLETED : Status.FAILED;
        this.state = state;
        this.messageHistory = List.copyOf(messageHistory);
        this.executedNodes = List.copyOf(executedNodes);
        this.resumedAfter = resumedAfter;
        this.failure = failure;
        this.alreadyCompleted = alreadyCompleted;
    }

    public String pipeline() {
        return pipeline;
    }

    public String runId() {
        return runId;
    }

    public Status status() {
        return status;
    }

    public boolean isCompleted() {
        return status == Status.COMPLETED;
    }

    public boolean isFailed() {
        return status == Status.FAILED;
    }

    /** The final state (completed) or the state the failing node started from (failed). */
    public S state() {
        return state;
    }

    /** The conversation of the finished nodes; failed attempts leave nothing in it. */
    public List<Message> messageHistory() {
        return messageHistory;
    }

    /** The nodes that ran and passed in this call, in order; nodes finished by an earlier call are not included. */
    public List<String> executedNodes() {
        return executedNodes;
    }

    /**
     * The node whose checkpoint this call resumed after ({@link Pipeline#START_NODE_ID} for a run
     * that stopped inside its first node); empty for a fresh run.
     */
    public Optional<String> resumedAfter() {
        return Optional.ofNullable(resumedAfter);
    }

    /** Why the run failed; empty when it completed. */
    public Optional<PipelineFailure> failure() {
        return Optional.ofNullable(failure);
    }

    /** Whether the run had completed in an earlier call, so this call ran nothing. */
    public boolean alreadyCompleted() {
        return alreadyCompleted;
    }

    @Override
    public String toString() {
        return "PipelineResult[" + pipeline + "/" + runId + " " + status
                + (failure == null ? "" : ": " + failure.describe())
                + (alreadyCompleted ? ", already completed" : "")
                + ", executed " + executedNodes + "]";
    }
}
