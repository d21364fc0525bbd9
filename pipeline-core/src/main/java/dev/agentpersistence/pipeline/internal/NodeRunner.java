package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.UndoResult;
import dev.agentpersistence.pipeline.AttemptOutcome;
import dev.agentpersistence.pipeline.ConditionPhase;
import dev.agentpersistence.pipeline.InputRequest;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.PipelineFailure;
import dev.agentpersistence.pipeline.PipelineFailure.Reason;
import dev.agentpersistence.pipeline.PipelineMetrics;
import dev.agentpersistence.pipeline.RetryFeedback;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.RunBusyException;
import dev.agentpersistence.pipeline.Sleeper;
import dev.agentpersistence.pipeline.StateBackup;
import dev.agentpersistence.pipeline.StateCodec;
import dev.agentpersistence.pipeline.Violation;
import io.micrometer.common.KeyValues;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one node the way the write-up's flowchart does: check preconditions (violated: fail, no retry); then per attempt
 * back up the state, run the action, check postconditions; on a pass save the checkpoint and discard the backup; on a
 * violation or exception restore the backup, undo the attempt's tool calls and retry with feedback until the retry
 * policy is used up.
 */
public final class NodeRunner<S> {
    private final StateCodec<S> codec;
    private final RetryPolicy defaultPolicy;
    private final RollbackToolRegistry rollbackTools;
    private final Sleeper sleeper;
    private final RunEvents events;
    private final RunCheckpoints checkpoints;
    private final ToolJournal journal;

    public NodeRunner(
            StateCodec<S> codec,
            RetryPolicy defaultPolicy,
            RollbackToolRegistry rollbackTools,
            Sleeper sleeper,
            RunEvents events,
            RunCheckpoints checkpoints,
            ToolJournal journal) {
        this.codec = codec;
        this.defaultPolicy = defaultPolicy;
        this.rollbackTools = rollbackTools;
        this.sleeper = sleeper;
        this.events = events;
        this.checkpoints = checkpoints;
        this.journal = journal;
    }

    /**
     * Runs {@code node}; when {@code recovered} is an attempt of this node that a crash cut off (and recovery undid),
     * numbering continues after it and the first attempt here is its retry.
     */
    public NodeOutcome<S> run(
            Node<S> node,
            S state,
            List<Message> history,
            JournalRecovery.Recovered recovered,
            Map<String, JsonNode> answers) {
        String name = node.name();
        List<Violation> unmet = ConditionChecks.check(node.preconditions(), state);
        if (!unmet.isEmpty()) {
            events.publish(new PipelineEvent.ValidationFailed(
                    events.pipeline(), events.runId(), events.now(), name, ConditionPhase.PRECONDITION, 0, unmet));
            return failed(state, history, Reason.PRECONDITION_FAILED, name, 0, unmet, null);
        }
        RetryPolicy policy = node.retryPolicy().orElse(defaultPolicy);
        RetryFeedback feedback = null;
        var failures = new FailedAttempts();
        int first = 1;
        if (recovered != null && recovered.node().equals(name)) {
            if (recovered.attempt() >= policy.maxAttempts()) {
                return failed(
                        state,
                        history,
                        Reason.RETRIES_EXHAUSTED,
                        name,
                        recovered.attempt(),
                        List.of(),
                        recovered.cause());
            }
            first = recovered.attempt() + 1;
            feedback = new RetryFeedback(
                    name, recovered.attempt(), policy.maxRetries(), List.of(), recovered.cause(), recovered.undo());
            failures.add(feedback);
        }
        for (int attempt = first; ; attempt++) {
            if (feedback != null) {
                Duration delay = policy.backoff().delayBeforeRetry(feedback.retry());
                events.publish(new PipelineEvent.RetryScheduled(
                        events.pipeline(), events.runId(), events.now(), name, attempt, delay, feedback));
                try {
                    if (!delay.isZero()) {
                        sleeper.sleep(delay);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return failed(state, history, Reason.INTERRUPTED, name, attempt - 1, feedback.violations(), e);
                }
            }
            StateBackup<S> backup;
            try {
                backup = codec.backup(state);
            } catch (RuntimeException e) {
                return failed(state, history, Reason.BACKUP_FAILED, name, attempt - 1, List.of(), e);
            }
            Attempt<S> result;
            try {
                result = attempt(node, state, history, attempt, policy, feedback, failures, backup, answers);
            } finally {
                backup.discard();
            }
            if (result.outcome != null) {
                return result.outcome;
            }
            state = result.restored;
            feedback = result.feedback;
            failures.add(feedback);
        }
    }

    /** One attempt; the backup is discarded by the caller. */
    private Attempt<S> attempt(
            Node<S> node,
            S state,
            List<Message> history,
            int attempt,
            RetryPolicy policy,
            RetryFeedback feedback,
            FailedAttempts failures,
            StateBackup<S> backup,
            Map<String, JsonNode> answers) {
        String name = node.name();
        var context = new AttemptContext<>(
                events.pipeline(),
                events.runId(),
                name,
                state,
                attempt,
                policy.maxAttempts(),
                feedback,
                history,
                journal,
                answers,
                events::now);
        events.publish(new PipelineEvent.NodeStarted(
                events.pipeline(), events.runId(), events.now(), name, attempt, policy.maxAttempts()));
        Instant start = events.now();
        Ran<S> ran = events.observe(
                PipelineMetrics.NODE_DURATION,
                "node " + name,
                KeyValues.of("node", name),
                Ran::keys,
                ATTEMPT_ERROR_KEYS,
                () -> runAction(node, context));
        S output = ran.output();
        Exception error = ran.error();
        Optional<InputRequest> question = context.pendingRequest();
        if (question.isPresent()) {
            return waitFor(question.get(), attempt, context, backup, output == null ? state : output, history);
        }
        List<Violation> violations = ran.violations();
        Duration duration = events.since(start);

        if (error == null && violations.isEmpty()) {
            events.publish(new PipelineEvent.NodeSucceeded(
                    events.pipeline(), events.runId(), events.now(), name, attempt, duration));
            var newHistory = new ArrayList<>(history);
            newHistory.addAll(context.addedMessages());
            try {
                long mark = journal.lastVersion();
                var metadata = new HashMap<>(journal.markMetadata(mark));
                metadata.put(RunCheckpoints.ATTEMPTS_KEY, Integer.toString(attempt));
                if (!failures.isEmpty()) {
                    metadata.put(FailedAttempts.KEY, failures.encode());
                }
                checkpoints.saveWith(name, codec.encode(output), newHistory, metadata);
                journal.trimBefore(mark);
                return Attempt.done(new NodeOutcome<>(output, newHistory, null));
            } catch (RunBusyException busy) {
                // Another runner took the run over: this attempt is abandoned as it stands, without undoing its tool
                // calls or writing to the journal; the new owner undoes its journaled calls, as after a crash.
                throw busy;
            } catch (InterruptedException | RuntimeException saveError) {
                // Nothing of an attempt that could not be checkpointed survives: a resume re-runs the node.
                var undone = rollBack(name, attempt, context, backup, output, history);
                if (undone.outcome != null) {
                    return undone;
                }
                boolean interrupted = saveError instanceof InterruptedException;
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return Attempt.done(failed(
                        undone.restored,
                        history,
                        interrupted ? Reason.INTERRUPTED : Reason.CHECKPOINT_FAILED,
                        name,
                        attempt,
                        List.of(),
                        saveError));
            }
        }

        if (!violations.isEmpty()) {
            events.publish(new PipelineEvent.ValidationFailed(
                    events.pipeline(),
                    events.runId(),
                    events.now(),
                    name,
                    ConditionPhase.POSTCONDITION,
                    attempt,
                    violations));
        }
        boolean interrupted = error instanceof InterruptedException;
        boolean last = interrupted || attempt >= policy.maxAttempts();
        events.publish(new PipelineEvent.NodeFailed(
                events.pipeline(),
                events.runId(),
                events.now(),
                name,
                attempt,
                error == null ? AttemptOutcome.VALIDATION_FAILED : AttemptOutcome.ERROR,
                violations,
                error,
                duration,
                !last));
        var undone = rollBack(name, attempt, context, backup, output == null ? state : output, history);
        if (undone.outcome != null) {
            return undone;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            return Attempt.done(failed(undone.restored, history, Reason.INTERRUPTED, name, attempt, violations, error));
        }
        if (last) {
            return Attempt.done(
                    failed(undone.restored, history, Reason.RETRIES_EXHAUSTED, name, attempt, violations, error));
        }
        var next = new RetryFeedback(name, attempt, policy.maxRetries(), violations, error, undone.toolRollback);
        return Attempt.retry(undone.restored, next);
    }

    /** Ends an attempt that asked a question: rolled back like a failed one, then the run waits. */
    private Attempt<S> waitFor(
            InputRequest question,
            int attempt,
            AttemptContext<S> context,
            StateBackup<S> backup,
            S current,
            List<Message> history) {
        var undone = rollBack(question.node(), attempt, context, backup, current, history);
        if (undone.outcome != null) {
            return undone;
        }
        events.publish(new PipelineEvent.InputRequested(events.pipeline(), events.runId(), events.now(), question));
        return Attempt.done(new NodeOutcome<>(undone.restored, history, null, question));
    }

    /** Restores the backup, then undoes the attempt's tool calls. */
    private Attempt<S> rollBack(
            String name,
            int attempt,
            AttemptContext<S> context,
            StateBackup<S> backup,
            S current,
            List<Message> history) {
        S restored;
        try {
            restored = backup.restore();
        } catch (RuntimeException e) {
            return Attempt.done(failed(current, history, Reason.BACKUP_FAILED, name, attempt, List.of(), e));
        }
        UndoResult toolRollback = rollbackTools.undo(context.toolCalls(), context::keyOf);
        if (!context.toolCalls().isEmpty()) {
            journal.closeQuietly(name, attempt);
        }
        events.publish(new PipelineEvent.RollbackPerformed(
                events.pipeline(), events.runId(), events.now(), name, attempt, toolRollback));
        return Attempt.rolledBack(restored, toolRollback);
    }

    private NodeOutcome<S> failed(
            S state,
            List<Message> history,
            Reason reason,
            String node,
            int attempts,
            List<Violation> violations,
            Throwable exception) {
        return new NodeOutcome<>(state, history, new PipelineFailure(reason, node, attempts, violations, exception));
    }

    /** What an attempt leads to: a final outcome, or a restored state (and feedback) to retry from. */
    private record Attempt<S>(NodeOutcome<S> outcome, S restored, UndoResult toolRollback, RetryFeedback feedback) {
        static <S> Attempt<S> done(NodeOutcome<S> outcome) {
            return new Attempt<>(outcome, null, null, null);
        }

        static <S> Attempt<S> rolledBack(S restored, UndoResult toolRollback) {
            return new Attempt<>(null, restored, toolRollback, null);
        }

        static <S> Attempt<S> retry(S restored, RetryFeedback feedback) {
            return new Attempt<>(null, restored, feedback.rollback(), feedback);
        }
    }

    private static final KeyValues ATTEMPT_ERROR_KEYS = KeyValues.of("outcome", AttemptOutcome.ERROR.tag());

    /** Runs the node's action and, when it returned a state and asked nothing, checks its postconditions. */
    private Ran<S> runAction(Node<S> node, AttemptContext<S> context) {
        S output = null;
        Exception error = null;
        try {
            output = node.action().run(context);
            if (output == null) {
                error = new IllegalStateException(
                        "the action of node '" + node.name() + "' returned null instead of a state");
            }
        } catch (RunBusyException busy) {
            throw busy; // taken over while the node ran: abandoned as it stands, the new owner undoes it
        } catch (Exception e) {
            error = e;
        }
        boolean asked = context.pendingRequest().isPresent();
        List<Violation> violations =
                error == null && !asked ? ConditionChecks.check(node.postconditions(), output) : List.of();
        return new Ran<>(output, error, violations, asked);
    }

    /** What an attempt's action gave: its state or error, the violated postconditions, whether it asked for input. */
    private record Ran<S>(S output, Exception error, List<Violation> violations, boolean asked) {
        KeyValues keys() {
            String outcome;
            if (asked) {
                outcome = "waiting";
            } else if (error != null) {
                outcome = AttemptOutcome.ERROR.tag();
            } else if (!violations.isEmpty()) {
                outcome = AttemptOutcome.VALIDATION_FAILED.tag();
            } else {
                outcome = AttemptOutcome.SUCCEEDED.tag();
            }
            return KeyValues.of("outcome", outcome);
        }
    }
}
