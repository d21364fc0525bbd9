package dev.agentpersistence.pipeline;

import dev.agentpersistence.UndoResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Something that happened in a pipeline run, delivered to {@link PipelineListener}s. Every event names the pipeline,
 * the run and when it happened (the pipeline's clock).
 *
 * <p>Order for one node: {@link NodeStarted}, then {@link NodeSucceeded} followed by {@link CheckpointSaved}, or
 * ({@link ValidationFailed} when postconditions were violated) {@link NodeFailed}, {@link RollbackPerformed} and, when
 * retries remain, {@link RetryScheduled} and the next {@link NodeStarted}. A precondition failure gives only
 * {@link ValidationFailed}.
 */
public sealed interface PipelineEvent {

    /** The pipeline's name. */
    String pipeline();

    /** The run's id. */
    String runId();

    /** When the event happened. */
    Instant at();

    /**
     * A run began.
     *
     * @param resumedAfter the node whose checkpoint the run resumes after ({@code null}: fresh run,
     *     {@link Pipeline#START_NODE_ID}: resumed before the first node)
     */
    record RunStarted(String pipeline, String runId, Instant at, String resumedAfter) implements PipelineEvent {
        public RunStarted {
            requireCommon(pipeline, runId, at);
        }

        /** Whether the run continues from a checkpoint. */
        public boolean resumed() {
            return resumedAfter != null;
        }
    }

    /**
     * The run's newest checkpoint was looked up.
     *
     * @param checkpointId the checkpoint found, or {@code null} when the run has none
     * @param nodeId its node id, or {@code null}
     * @param latency how long the lookup took
     */
    record CheckpointLoaded(
            String pipeline, String runId, Instant at, String checkpointId, String nodeId, Duration latency)
            implements PipelineEvent {
        public CheckpointLoaded {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(latency, "latency");
        }

        /** Whether a checkpoint was found. */
        public boolean found() {
            return checkpointId != null;
        }
    }

    /** An attempt of a node began. */
    record NodeStarted(String pipeline, String runId, Instant at, String node, int attempt, int maxAttempts)
            implements PipelineEvent {
        public NodeStarted {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
        }
    }

    /** An attempt of a node passed its postconditions. */
    record NodeSucceeded(String pipeline, String runId, Instant at, String node, int attempt, Duration duration)
            implements PipelineEvent {
        public NodeSucceeded {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(duration, "duration");
        }
    }

    /**
     * An attempt of a node failed; the state is restored next.
     *
     * @param outcome {@link AttemptOutcome#VALIDATION_FAILED} or {@link AttemptOutcome#ERROR}
     * @param violations the postcondition violations (empty on error)
     * @param exception what the action threw, or {@code null}
     * @param duration how long the attempt ran
     * @param willRetry whether another attempt follows
     */
    record NodeFailed(
            String pipeline,
            String runId,
            Instant at,
            String node,
            int attempt,
            AttemptOutcome outcome,
            List<Violation> violations,
            Throwable exception,
            Duration duration,
            boolean willRetry)
            implements PipelineEvent {
        public NodeFailed {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(outcome, "outcome");
            violations = List.copyOf(violations);
            Objects.requireNonNull(duration, "duration");
        }
    }

    /**
     * Conditions were violated.
     *
     * @param attempt the attempt whose result was checked; 0 for preconditions
     */
    record ValidationFailed(
            String pipeline,
            String runId,
            Instant at,
            String node,
            ConditionPhase phase,
            int attempt,
            List<Violation> violations)
            implements PipelineEvent {
        public ValidationFailed {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(phase, "phase");
            violations = List.copyOf(violations);
        }
    }

    /**
     * A failed attempt was undone: the state backup restored and the attempt's tool calls undone.
     *
     * @param toolRollback the inverse tool calls made
     */
    record RollbackPerformed(
            String pipeline, String runId, Instant at, String node, int attempt, UndoResult toolRollback)
            implements PipelineEvent {
        public RollbackPerformed {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(toolRollback, "toolRollback");
        }
    }

    /**
     * A resumed run found an attempt that a crash cut off in the write-ahead tool journal and undid its journaled tool
     * calls (newest first); the node runs again with an {@link AttemptAbandonedException} as feedback.
     *
     * @param attempt the number of the attempt that was cut off
     * @param toolRollback the inverse tool calls made
     */
    record AttemptRecovered(
            String pipeline, String runId, Instant at, String node, int attempt, UndoResult toolRollback)
            implements PipelineEvent {
        public AttemptRecovered {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(toolRollback, "toolRollback");
        }
    }

    /**
     * A node asked for input ({@link NodeContext#awaitInput}); the run ends waiting.
     *
     * @param request the question
     */
    record InputRequested(String pipeline, String runId, Instant at, InputRequest request) implements PipelineEvent {
        public InputRequested {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@link Pipeline#resume} accepted an answer; the run goes on.
     *
     * @param request the question answered
     * @param waited how long the run waited, from the question to the answer
     */
    record InputReceived(String pipeline, String runId, Instant at, InputRequest request, Duration waited)
            implements PipelineEvent {
        public InputReceived {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(waited, "waited");
        }
    }

    /**
     * The node will run again after {@code delay}, with {@code feedback}.
     *
     * @param nextAttempt the number of the attempt to come
     */
    record RetryScheduled(
            String pipeline,
            String runId,
            Instant at,
            String node,
            int nextAttempt,
            Duration delay,
            RetryFeedback feedback)
            implements PipelineEvent {
        public RetryScheduled {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(feedback, "feedback");
        }
    }

    /**
     * A checkpoint was saved after a node (or {@link Pipeline#START_NODE_ID} for the run's input).
     *
     * @param sizeBytes the checkpoint's size in the JSON checkpoint format
     * @param latency how long the save took, retries and waits included
     * @param saveAttempts how many saves it took
     */
    record CheckpointSaved(
            String pipeline,
            String runId,
            Instant at,
            String node,
            String checkpointId,
            long version,
            long sizeBytes,
            Duration latency,
            int saveAttempts)
            implements PipelineEvent {
        public CheckpointSaved {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(checkpointId, "checkpointId");
            Objects.requireNonNull(latency, "latency");
        }
    }

    /**
     * A checkpoint save failed.
     *
     * @param saveAttempt which save attempt failed, 1 for the first
     * @param willRetry whether the save is tried again (only for an unavailable store)
     */
    record CheckpointSaveFailed(
            String pipeline,
            String runId,
            Instant at,
            String node,
            int saveAttempt,
            Throwable exception,
            boolean willRetry)
            implements PipelineEvent {
        public CheckpointSaveFailed {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(exception, "exception");
        }
    }

    /**
     * A run ended.
     *
     * @param failure why it failed, or {@code null} when it completed
     * @param alreadyCompleted whether the run had completed before and nothing ran
     */
    record RunFinished(
            String pipeline,
            String runId,
            Instant at,
            PipelineResult.Status status,
            PipelineFailure failure,
            Duration duration,
            boolean alreadyCompleted)
            implements PipelineEvent {
        public RunFinished {
            requireCommon(pipeline, runId, at);
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(duration, "duration");
        }
    }

    private static void requireCommon(String pipeline, String runId, Instant at) {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
    }
}
