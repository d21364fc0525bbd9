package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.ExecutionPoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.PipelineMetrics;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.RunBusyException;
import dev.agentpersistence.pipeline.Sleeper;
import io.micrometer.common.KeyValues;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's checkpoints, through {@link AgentPersistence} (which assigns ids): saves with retries while the store is
 * unavailable, loads, and the completion tombstone.
 *
 * <p>One runner per run: every save is a compare-and-set on the run's head
 * ({@link AgentPersistence#createCheckpointAfter}), right after the checkpoint this runner last read or saved. When
 * another runner saved in between, the save is refused and {@link RunBusyException} stops this runner. Every checkpoint
 * carries the runner's token ({@value #RUNNER_KEY}), so a refused runner can name the holder, and a save that reached
 * the store although the store reported it unavailable is recognised as this runner's own when it is retried.
 *
 * <p>Checkpoint form: agent id = {@link RunIds#storedId} (or the raw run id for a run of an earlier version); node id =
 * the node that finished; state entries {@value #PIPELINE_KEY} (the pipeline's name) and {@value #STATE_KEY} (the
 * encoded pipeline state); metadata {@value #PIPELINE_KEY}, {@value #ATTEMPTS_KEY} (the attempts the node took) and,
 * when the node's attempts journaled tool calls, {@value ToolJournal#MARK_KEY} and {@value ToolJournal#JOURNAL_KEY}.
 */
public final class RunCheckpoints {
    /** State and metadata key holding the pipeline name. */
    public static final String PIPELINE_KEY = "pipeline";
    /** State key holding the encoded pipeline state. */
    public static final String STATE_KEY = "pipeline.state";
    /** Metadata key holding the attempts the node needed. */
    public static final String ATTEMPTS_KEY = "pipeline.attempts";
    /** Metadata key of a claim: the id of the checkpoint it copies (the run's newest when the runner started). */
    public static final String CLAIMED_KEY = "pipeline.claimed";
    /** Metadata key holding the token of the runner that saved the checkpoint. */
    public static final String RUNNER_KEY = "pipeline.runner";

    private static final Logger LOG = LoggerFactory.getLogger(RunCheckpoints.class);

    private final AgentPersistence persistence;
    private final String agentId;
    private final String runner;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    private final RunEvents events;
    /** The newest checkpoint this runner read or saved; null before {@link #latest()}. */
    private volatile Optional<AgentCheckpoint> head;

    /**
     * @param persistence the facade writing {@code agentId}
     * @param agentId the run's stored agent id
     * @param runner this runner's token
     */
    public RunCheckpoints(
            AgentPersistence persistence,
            String agentId,
            String runner,
            RetryPolicy retry,
            Sleeper sleeper,
            RunEvents events) {
        this.persistence = persistence;
        this.agentId = agentId;
        this.runner = runner;
        this.retry = retry;
        this.sleeper = sleeper;
        this.events = events;
    }

    /** The run's stored agent id. */
    public String agentId() {
        return agentId;
    }

    /**
     * Claims the run by saving a copy of its newest checkpoint {@code latest} right after it (node, state, history,
     * metadata), so no other runner that read the same head can save after it.
     *
     * @throws RunBusyException when another runner saved after {@code latest}
     */
    public AgentCheckpoint claim(AgentCheckpoint latest) throws InterruptedException {
        var metadata = new HashMap<>(latest.metadata());
        metadata.remove(RUNNER_KEY);
        metadata.put(CLAIMED_KEY, latest.checkpointId());
        return saveWith(latest.nodeId(), latest.state().get(STATE_KEY), latest.messageHistory(), metadata);
    }

    /**
     * Saves the state after {@code nodeId}.
     *
     * @throws InterruptedException when interrupted while waiting to retry
     * @throws RuntimeException the last storage exception when the save could not be made
     */
    public AgentCheckpoint save(String nodeId, JsonNode state, List<Message> history, int attempts)
            throws InterruptedException {
        var metadata = new HashMap<String, String>();
        metadata.put(ATTEMPTS_KEY, Integer.toString(attempts));
        return saveWith(nodeId, state, history, metadata);
    }

    /**
     * Saves a checkpoint after {@code nodeId} with metadata besides the pipeline name: the attempts, the journal mark
     * ({@link ToolJournal#markMetadata}), a wait, or the answers to the next node's questions.
     */
    public AgentCheckpoint saveWith(
            String nodeId, JsonNode state, List<Message> history, Map<String, String> extraMetadata)
            throws InterruptedException {
        var context = new SimpleAgentContext(agentId);
        context.restore(new ExecutionPoint(
                nodeId, history, null, Map.of(PIPELINE_KEY, TextNode.valueOf(events.pipeline()), STATE_KEY, state)));
        var metadata = new HashMap<>(extraMetadata);
        metadata.put(PIPELINE_KEY, events.pipeline());
        metadata.put(RUNNER_KEY, runner);
        return saving(
                nodeId,
                expected ->
                        persistence.createCheckpointAfter(expected, context, nodeId, null, null, Map.copyOf(metadata)));
    }

    /** Writes the tombstone that records the run as completed. */
    public AgentCheckpoint markCompleted() throws InterruptedException {
        return saving(
                AgentCheckpoint.TOMBSTONE_NODE_ID,
                expected -> persistence.markRunCompletedAfter(
                        expected.orElseThrow(() -> new IllegalStateException(
                                "run '" + events.runId() + "' has no checkpoint to complete")),
                        new SimpleAgentContext(agentId)));
    }

    /** The run's newest checkpoint (possibly a tombstone), retried while the store is unavailable. */
    public Optional<AgentCheckpoint> latest() throws InterruptedException {
        Instant start = events.now();
        var latest = events.observe(
                PipelineMetrics.CHECKPOINT_LOAD_DURATION,
                "checkpoint load",
                KeyValues.empty(),
                found -> KeyValues.of("found", Boolean.toString(found.isPresent())),
                KeyValues.of("found", "false"),
                () -> retrying(() -> persistence.latestCheckpoint(agentId), null));
        head = latest;
        events.publish(new PipelineEvent.CheckpointLoaded(
                events.pipeline(),
                events.runId(),
                events.now(),
                latest.map(AgentCheckpoint::checkpointId).orElse(null),
                latest.map(AgentCheckpoint::nodeId).orElse(null),
                events.since(start)));
        return latest;
    }

    /** The checkpoint a tombstone was written after (the run's final state). */
    public Optional<AgentCheckpoint> completedCheckpoint(AgentCheckpoint tombstone) throws InterruptedException {
        if (tombstone.parentCheckpointId() == null) {
            return Optional.empty();
        }
        return retrying(() -> persistence.checkpoint(agentId, tombstone.parentCheckpointId()), null);
    }

    /** The run's newest checkpoint, retried while the store is unavailable, without an event. */
    public Optional<AgentCheckpoint> probe() throws InterruptedException {
        return retrying(() -> persistence.latestCheckpoint(agentId), null);
    }

    private AgentCheckpoint saving(String nodeId, Function<Optional<AgentCheckpoint>, AgentCheckpoint> save)
            throws InterruptedException {
        if (head == null) {
            throw new IllegalStateException("run '" + events.runId() + "': a save before its head was read");
        }
        Instant start = events.now();
        int[] attempts = {0};
        Optional<AgentCheckpoint> expected = head;
        AgentCheckpoint saved = events.observe(
                PipelineMetrics.CHECKPOINT_SAVE_DURATION,
                "checkpoint save",
                KeyValues.empty(),
                cp -> KeyValues.empty(),
                KeyValues.empty(),
                () -> retrying(
                        () -> {
                            attempts[0]++;
                            try {
                                return save.apply(expected);
                            } catch (CheckpointConflictException e) {
                                return ownSave(expected).orElseThrow(() -> busy(e));
                            }
                        },
                        nodeId));
        head = Optional.of(saved);
        long size = CheckpointCodec.json().encode(saved).length;
        events.publish(new PipelineEvent.CheckpointSaved(
                events.pipeline(),
                events.runId(),
                events.now(),
                nodeId,
                saved.checkpointId(),
                saved.version(),
                size,
                events.since(start),
                attempts[0]));
        return saved;
    }

    /**
     * The checkpoint right after {@code expected} when this runner saved it: a save the store reported unavailable that
     * was stored all the same, found again by its retry.
     */
    private Optional<AgentCheckpoint> ownSave(Optional<AgentCheckpoint> expected) {
        long next = expected.map(cp -> cp.version() + 1).orElse(0L);
        return persistence
                .latestCheckpoint(agentId)
                .filter(cp ->
                        cp.version() == next && runner.equals(cp.metadata().get(RUNNER_KEY)));
    }

    private RunBusyException busy(CheckpointConflictException conflict) {
        String holder = null;
        try {
            holder = persistence
                    .latestCheckpoint(agentId)
                    .map(cp -> cp.metadata().get(RUNNER_KEY))
                    .orElse(null);
        } catch (RuntimeException e) {
            conflict.addSuppressed(e);
        }
        return new RunBusyException(events.pipeline(), events.runId(), holder, conflict);
    }

    /**
     * Runs {@code operation}, retrying {@link StorageUnavailableException}s; {@code savedNode} non-null marks a save.
     */
    private <T> T retrying(Supplier<T> operation, String savedNode) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (RuntimeException e) {
                boolean retryable = e instanceof StorageUnavailableException && attempt <= retry.maxRetries();
                if (savedNode != null) {
                    events.publish(new PipelineEvent.CheckpointSaveFailed(
                            events.pipeline(), events.runId(), events.now(), savedNode, attempt, e, retryable));
                }
                if (!retryable) {
                    throw e;
                }
                Duration delay = retry.backoff().delayBeforeRetry(attempt);
                LOG.warn(
                        "Checkpoint store unavailable for run '{}' of pipeline '{}' (attempt {} of {}), retrying in "
                                + "{}: {}",
                        events.runId(),
                        events.pipeline(),
                        attempt,
                        retry.maxAttempts(),
                        delay,
                        e.getMessage());
                if (!delay.isZero()) {
                    sleeper.sleep(delay);
                }
            }
        }
    }
}
