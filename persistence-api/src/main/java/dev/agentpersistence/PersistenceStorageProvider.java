package dev.agentpersistence;

import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.internal.CheckpointContent;
import dev.agentpersistence.internal.HeadCondition;
import dev.agentpersistence.queue.QueueStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Stores and retrieves {@link AgentCheckpoint}s. Implement the three abstract methods to write a provider; override the
 * defaults when the backend can do better, and run the {@code StorageProviderCompatibilityKit} from
 * {@code persistence-tck} against it.
 *
 * <p>Contract, checked by the kit:
 *
 * <ul>
 *   <li>Lists are in ascending version order; a filter's {@code limit} keeps the newest matches.
 *   <li>{@code saveCheckpoint} rejects a checkpoint whose {@code agentId} differs from the argument with
 *       {@link IllegalArgumentException}.
 *   <li>A save whose {@code (agentId, version)} or {@code (agentId, checkpointId)} is already stored with different
 *       content throws {@link dev.agentpersistence.CheckpointConflictException}; saving an identical checkpoint again
 *       does nothing.
 *   <li>A save is either fully visible or not at all, also across a crash.
 *   <li>Any valid id ({@link dev.agentpersistence.Identifiers}) is stored safely.
 * </ul>
 *
 * <p>Beyond reading and writing, a provider offers expiry ({@link #deleteExpired()}), a health check
 * ({@link #checkHealth()}) and, when it is built on the storage shell, its stored form ({@link #storedForm()}). A
 * provider that wraps another forwards all three, so no capability is ever hidden behind a wrapper; callers ask the
 * provider, never test its class.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <F> the filter type; built-in providers use {@link dev.agentpersistence.CheckpointFilter}
 */
public interface PersistenceStorageProvider<F> extends AutoCloseable {
    /** The agent id the default {@link #checkHealth()} reads. */
    String HEALTH_PROBE_AGENT = "agent-persistence-health-probe";

    /** The agent's checkpoints matching {@code filter} ({@code null}: all), ascending by version. */
    List<AgentCheckpoint> getCheckpoints(String agentId, F filter);

    /** Stores one checkpoint; see the class documentation for conflicts and idempotence. */
    void saveCheckpoint(String agentId, AgentCheckpoint checkpoint);

    /** The matching checkpoint with the highest version. */
    Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter);

    /**
     * Stores {@code checkpoint} only while the agent's newest checkpoint (tombstones included) is {@code expectedHead}
     * (same id and version), or, when {@code expectedHead} is empty, while the agent has none: a compare-and-set on the
     * agent's head, for writers that build on what they read (a run, a journal, a conversation, a queue, a lease).
     * Saving the same checkpoint again after it was stored does nothing, as for {@link #saveCheckpoint}.
     *
     * <p>The built-in providers check and store in one step against every other save and deletion of the agent, so a
     * checkpoint built on a head that a deletion removed is never stored. The default is not one step: it reads the
     * newest checkpoint, then saves.
     *
     * @param expectedHead the newest checkpoint the writer read, or empty for an agent it read without checkpoints
     * @throws CheckpointConflictException when the newest checkpoint is another one, or the checkpoint's version or id
     *     is taken with other content; nothing is stored
     * @throws IllegalArgumentException when {@code expectedHead} belongs to another agent, or {@code checkpoint}'s
     *     version is not above it
     */
    default void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        HeadCondition.require(agentId, expectedHead, checkpoint);
        Optional<AgentCheckpoint> newest = getLatestCheckpoint(agentId, null);
        if (newest.isPresent()
                && newest.get().checkpointId().equals(checkpoint.checkpointId())
                && CheckpointContent.same(newest.get(), checkpoint)) {
            return; // stored already: an idempotent repeat
        }
        if (!HeadCondition.holds(expectedHead, newest)) {
            throw HeadCondition.moved(
                    agentId,
                    expectedHead
                            .map(h -> HeadCondition.describe(h.checkpointId(), h.version()))
                            .orElse(null),
                    checkpoint,
                    newest);
        }
        saveCheckpoint(agentId, checkpoint);
    }

    /**
     * Stores many checkpoints, of one agent or several (each under its own {@link AgentCheckpoint#agentId()}), with the
     * guarantees of one {@link #saveCheckpoint} each: every checkpoint is stored completely or not at all, and one that
     * meets a stored checkpoint with the same version or id and other content is not stored and reported by its
     * {@link SaveResult#conflict()}, without stopping the others; an identical one is an idempotent retry. Checkpoints
     * of one agent are saved in the order given.
     *
     * <p>The default calls {@code saveCheckpoint} for each; the built-in providers write many at a time and hold the
     * stored form of the whole batch while they do, so a caller with very many checkpoints passes them in pages (the
     * command line's {@code copy} passes 200 at a time).
     *
     * @return one result per checkpoint, in the order given
     * @throws IllegalArgumentException when a checkpoint is invalid as a {@code saveCheckpoint} argument
     * @throws PersistenceException when the store fails; the checkpoints before the failing one may be stored
     */
    default List<SaveResult> saveCheckpoints(List<AgentCheckpoint> checkpoints) {
        Objects.requireNonNull(checkpoints, "checkpoints");
        var results = new ArrayList<SaveResult>(checkpoints.size());
        for (AgentCheckpoint checkpoint : checkpoints) {
            Objects.requireNonNull(checkpoint, "checkpoint");
            try {
                saveCheckpoint(checkpoint.agentId(), checkpoint);
                results.add(SaveResult.saved(checkpoint));
            } catch (CheckpointConflictException e) {
                results.add(SaveResult.conflicting(checkpoint, e));
            }
        }
        return List.copyOf(results);
    }

    /** All checkpoints of the agent, ascending by version. */
    default List<AgentCheckpoint> getCheckpoints(String agentId) {
        return getCheckpoints(agentId, null);
    }

    /** The checkpoint with the highest version. */
    default Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return getLatestCheckpoint(agentId, null);
    }

    /** One checkpoint by id. The default scans {@link #getCheckpoints(String)}; built-ins look it up directly. */
    default Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return getCheckpoints(agentId).stream()
                .filter(checkpoint -> checkpoint.checkpointId().equals(checkpointId))
                .findFirst();
    }

    /**
     * Deletes every checkpoint of the agent and returns how many there were.
     *
     * @throws UnsupportedOperationException when the provider does not support deletion
     */
    default int deleteCheckpoints(String agentId) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support deleteCheckpoints");
    }

    /**
     * Deletes the agent's checkpoints with a version strictly below {@code version} (retention) and returns how many
     * were deleted.
     *
     * @throws UnsupportedOperationException when the provider does not support deletion
     */
    default int deleteCheckpointsBefore(String agentId, long version) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support deleteCheckpointsBefore");
    }

    /**
     * The ids of agents with at least one checkpoint, sorted.
     *
     * @throws UnsupportedOperationException when the provider cannot enumerate agents
     */
    default List<String> listAgents() {
        throw new UnsupportedOperationException(getClass().getName() + " does not support listAgents");
    }

    /**
     * Deletes every checkpoint whose time to live has run out and returns how many were deleted. Default: 0, for a
     * provider that keeps no expiry times or whose store expires data by itself.
     */
    default int deleteExpired() {
        return 0;
    }

    /**
     * A cheap round trip to the store (a ping, a {@code SELECT 1}, a bucket check). Default: reads the latest
     * checkpoint of the agent {@value #HEALTH_PROBE_AGENT}.
     *
     * @throws StorageUnavailableException when the store cannot be reached
     */
    default void checkHealth() {
        getLatestCheckpoint(HEALTH_PROBE_AGENT);
    }

    /**
     * The stored form beneath the checkpoints (stored documents and their sizes, history segments and their
     * collection), for a provider built on the storage shell; empty for a provider that keeps its own form.
     */
    default Optional<StoredForm> storedForm() {
        return Optional.empty();
    }

    /**
     * The store's native queues ({@link QueueStore}), for a provider built on the storage shell whose backend has them;
     * empty otherwise, and callers then keep queues in checkpoints (as pipelines do).
     */
    default Optional<QueueStore> queues() {
        return Optional.empty();
    }

    /** Releases connections, pools and files. Later calls throw {@link IllegalStateException}. */
    @Override
    default void close() {}
}
