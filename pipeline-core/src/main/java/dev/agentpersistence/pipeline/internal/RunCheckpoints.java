package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.ExecutionPoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.Sleeper;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's checkpoints, through {@link AgentPersistence} (which assigns ids and versions): saves with retries while
 * the store is unavailable, loads, and the completion tombstone.
 *
 * <p>Checkpoint form: agent id = run id; node id = the node that finished; state entries {@value #PIPELINE_KEY} (the
 * pipeline's name) and {@value #STATE_KEY} (the encoded pipeline state); metadata {@value #PIPELINE_KEY},
 * {@value #ATTEMPTS_KEY} (the attempts the node took) and, when the node's attempts journaled tool calls,
 * {@value ToolJournal#MARK_KEY} and {@value ToolJournal#JOURNAL_KEY}.
 */
public final class RunCheckpoints {
    /** State and metadata key holding the pipeline name. */
    public static final String PIPELINE_KEY = "pipeline";
    /** State key holding the encoded pipeline state. */
    public static final String STATE_KEY = "pipeline.state";
    /** Metadata key holding the attempts the node needed. */
    public static final String ATTEMPTS_KEY = "pipeline.attempts";

    private static final Logger LOG = LoggerFactory.getLogger(RunCheckpoints.class);

    private final AgentPersistence persistence;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    private final RunEvents events;

    public RunCheckpoints(AgentPersistence persistence, RetryPolicy retry, Sleeper sleeper, RunEvents events) {
        this.persistence = persistence;
        this.retry = retry;
        this.sleeper = sleeper;
        this.events = events;
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
        var context = new SimpleAgentContext(events.runId());
        context.restore(new ExecutionPoint(
                nodeId, history, null, Map.of(PIPELINE_KEY, TextNode.valueOf(events.pipeline()), STATE_KEY, state)));
        var metadata = new HashMap<>(extraMetadata);
        metadata.put(PIPELINE_KEY, events.pipeline());
        return saving(nodeId, () -> persistence.createCheckpoint(context, nodeId, null, null, Map.copyOf(metadata)));
    }

    /** Writes the tombstone that records the run as completed. */
    public AgentCheckpoint markCompleted() throws InterruptedException {
        return saving(
                AgentCheckpoint.TOMBSTONE_NODE_ID,
                () -> persistence.markRunCompleted(new SimpleAgentContext(events.runId())));
    }

    /** The run's newest checkpoint (possibly a tombstone), retried while the store is unavailable. */
    public Optional<AgentCheckpoint> latest() throws InterruptedException {
        Instant start = events.now();
        var latest = retrying(() -> persistence.latestCheckpoint(events.runId()), null);
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
        return retrying(() -> persistence.checkpoint(events.runId(), tombstone.parentCheckpointId()), null);
    }

    private AgentCheckpoint saving(String nodeId, Supplier<AgentCheckpoint> save) throws InterruptedException {
        Instant start = events.now();
        int[] attempts = {0};
        AgentCheckpoint saved = retrying(
                () -> {
                    attempts[0]++;
                    return save.get();
                },
                nodeId);
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
