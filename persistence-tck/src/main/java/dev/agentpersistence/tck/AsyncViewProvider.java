package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.async.AsyncExecutor;
import dev.agentpersistence.async.AsyncStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.queue.QueueStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Runs the kit through the {@link AsyncStorageProvider} view of a provider: every SPI call goes through the async view
 * and waits for its future, and the exception a future fails with is rethrown as it is. Return one from
 * {@code createProvider()} to check that the async view keeps every contract (same results, same typed exceptions,
 * closed state) of the provider under it.
 *
 * @param <F> the provider's filter type
 */
public final class AsyncViewProvider<F> implements PersistenceStorageProvider<F> {
    private final AsyncStorageProvider<F> view;

    private AsyncViewProvider(AsyncStorageProvider<F> view) {
        this.view = view;
    }

    /**
     * {@code provider} seen through its async view on {@code executor}; closing this closes the provider. Expiry, the
     * health check and the stored form are the provider's own, so the kit's groups on them run too.
     */
    public static <F> AsyncViewProvider<F> over(PersistenceStorageProvider<F> provider, AsyncExecutor executor) {
        return new AsyncViewProvider<>(AsyncStorageProvider.of(provider, executor));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, F filter) {
        return await(view.getCheckpoints(agentId, filter));
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        await(view.saveCheckpoint(agentId, checkpoint));
    }

    @Override
    public void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        await(view.saveCheckpointAfter(agentId, expectedHead, checkpoint));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter) {
        return await(view.getLatestCheckpoint(agentId, filter));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return await(view.getCheckpoints(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return await(view.getLatestCheckpoint(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return await(view.getCheckpoint(agentId, checkpointId));
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return await(view.deleteCheckpoints(agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return await(view.deleteCheckpointsBefore(agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return await(view.listAgents());
    }

    @Override
    public int deleteExpired() {
        return view.provider().deleteExpired();
    }

    @Override
    public void checkHealth() {
        view.provider().checkHealth();
    }

    @Override
    public Optional<StoredForm> storedForm() {
        return view.provider().storedForm();
    }

    @Override
    public Optional<QueueStore> queues() {
        return view.provider().queues();
    }

    @Override
    public void close() {
        view.provider().close();
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "AsyncViewProvider[" + view + "]";
    }
}
