package dev.agentpersistence.async;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CompletableFuture} view of any {@link PersistenceStorageProvider}: each method runs the provider's blocking
 * method of the same name on an {@link AsyncExecutor} and returns at once. Threading, back-pressure, cancellation and
 * error mapping are the executor's (see {@link AsyncExecutor}). The view owns neither the provider nor the executor;
 * close them yourself.
 *
 * @param <F> the provider's filter type
 */
public final class AsyncStorageProvider<F> {
    private final PersistenceStorageProvider<F> provider;
    private final AsyncExecutor executor;

    private AsyncStorageProvider(PersistenceStorageProvider<F> provider, AsyncExecutor executor) {
        this.provider = provider;
        this.executor = executor;
    }

    /** The async view of {@code provider}, running calls on {@code executor}. */
    public static <F> AsyncStorageProvider<F> of(PersistenceStorageProvider<F> provider, AsyncExecutor executor) {
        return new AsyncStorageProvider<>(
                Objects.requireNonNull(provider, "provider"), Objects.requireNonNull(executor, "executor"));
    }

    /** The provider the calls go to. */
    public PersistenceStorageProvider<F> provider() {
        return provider;
    }

    public AsyncExecutor executor() {
        return executor;
    }

    /** {@link PersistenceStorageProvider#getCheckpoints(String, Object)}. */
    public CompletableFuture<List<AgentCheckpoint>> getCheckpoints(String agentId, F filter) {
        return executor.submit("getCheckpoints(" + agentId + ")", () -> provider.getCheckpoints(agentId, filter));
    }

    /** {@link PersistenceStorageProvider#getCheckpoints(String)}. */
    public CompletableFuture<List<AgentCheckpoint>> getCheckpoints(String agentId) {
        return executor.submit("getCheckpoints(" + agentId + ")", () -> provider.getCheckpoints(agentId));
    }

    /** {@link PersistenceStorageProvider#saveCheckpoint}; completes when the save is acknowledged. */
    public CompletableFuture<Void> saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        return executor.submit("saveCheckpoint(" + agentId + ")", () -> {
            provider.saveCheckpoint(agentId, checkpoint);
            return null;
        });
    }

    /** {@link PersistenceStorageProvider#saveCheckpointAfter}; completes when the save is acknowledged. */
    public CompletableFuture<Void> saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        return executor.submit("saveCheckpointAfter(" + agentId + ")", () -> {
            provider.saveCheckpointAfter(agentId, expectedHead, checkpoint);
            return null;
        });
    }

    /** {@link PersistenceStorageProvider#getLatestCheckpoint(String, Object)}. */
    public CompletableFuture<Optional<AgentCheckpoint>> getLatestCheckpoint(String agentId, F filter) {
        return executor.submit(
                "getLatestCheckpoint(" + agentId + ")", () -> provider.getLatestCheckpoint(agentId, filter));
    }

    /** {@link PersistenceStorageProvider#getLatestCheckpoint(String)}. */
    public CompletableFuture<Optional<AgentCheckpoint>> getLatestCheckpoint(String agentId) {
        return executor.submit("getLatestCheckpoint(" + agentId + ")", () -> provider.getLatestCheckpoint(agentId));
    }

    /** {@link PersistenceStorageProvider#getCheckpoint}. */
    public CompletableFuture<Optional<AgentCheckpoint>> getCheckpoint(String agentId, String checkpointId) {
        return executor.submit("getCheckpoint(" + agentId + ")", () -> provider.getCheckpoint(agentId, checkpointId));
    }

    /** {@link PersistenceStorageProvider#deleteCheckpoints}. */
    public CompletableFuture<Integer> deleteCheckpoints(String agentId) {
        return executor.submit("deleteCheckpoints(" + agentId + ")", () -> provider.deleteCheckpoints(agentId));
    }

    /** {@link PersistenceStorageProvider#deleteCheckpointsBefore}. */
    public CompletableFuture<Integer> deleteCheckpointsBefore(String agentId, long version) {
        return executor.submit(
                "deleteCheckpointsBefore(" + agentId + ")", () -> provider.deleteCheckpointsBefore(agentId, version));
    }

    /** {@link PersistenceStorageProvider#listAgents}. */
    public CompletableFuture<List<String>> listAgents() {
        return executor.submit("listAgents()", provider::listAgents);
    }

    @Override
    public String toString() {
        return "AsyncStorageProvider[" + provider + " on " + executor + "]";
    }
}
