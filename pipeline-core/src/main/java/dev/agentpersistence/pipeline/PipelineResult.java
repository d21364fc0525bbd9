package dev.agentpersistence.pipeline;

import dev.agentpersistence.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Pipeline#run} ended.
 *
 * <p>{@link #state()} is the final state of a completed run; for a failed run it is the state before the failing node's
 * action (its failed attempts rolled back), which is also what its newest checkpoint holds. For a waiting run it is the
 * state the asking node started from.
 *
 * @param <S> the pipeline state type
 */
public final class PipelineResult<S> {

    /** Whether the run got through every node, failed, or stopped at a question ({@link NodeContext#awaitInput}). */
    public enum Status {
        COMPLETED,
        FAILED,
        WAITING
    }

    private final String pipeline;
    private final String runId;
    private final Status status;
    private final S state;
    private final List<Message> messageHistory;
    private final List<String> executedNodes;
    private final String resumedAfter;
    private final PipelineFailure failure;
    private final boolean alreadyCompleted;
    private final InputRequest waitingFor;

    PipelineResult(
            String pipeline,
            String runId,
            S state,
            List<Message> messageHistory,
            List<String> executedNodes,
            String resumedAfter,
            PipelineFailure failure,
            boolean alreadyCompleted) {
        this(pipeline, runId, state, messageHistory, executedNodes, resumedAfter, failure, alreadyCompleted, null);
    }

    PipelineResult(
            String pipeline,
            String runId,
            S state,
            List<Message> messageHistory,
            List<String> executedNodes,
            String resumedAfter,
            PipelineFailure failure,
            boolean alreadyCompleted,
            InputRequest waitingFor) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.runId = Objects.requireNonNull(runId, "runId");
        this.waitingFor = waitingFor;
        this.status = failure != null ? Status.FAILED : waitingFor != null ? Status.WAITING : Status.COMPLETED;
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

    /** Whether the run stopped at a question and waits for {@link Pipeline#resume}. */
    public boolean isWaiting() {
        return status == Status.WAITING;
    }

    /** The question the run waits on; empty unless {@link #isWaiting()}. */
    public Optional<InputRequest> waitingFor() {
        return Optional.ofNullable(waitingFor);
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
     * The node whose checkpoint this call resumed after ({@link Pipeline#START_NODE_ID} for a run that stopped inside
     * its first node); empty for a fresh run.
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
                + (waitingFor == null ? "" : ": " + waitingFor.requestId() + " \"" + waitingFor.question() + "\"")
                + (alreadyCompleted ? ", already completed" : "")
                + ", executed " + executedNodes + "]";
    }
}
