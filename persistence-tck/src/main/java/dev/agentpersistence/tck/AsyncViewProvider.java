package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.async.AsyncExecutor;
import dev.agentpersistence.async.AsyncStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.storage.StorageShell;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
public class AsyncViewProvider<F> implements PersistenceStorageProvider<F> {
    private final AsyncStorageProvider<F> view;

    private AsyncViewProvider(AsyncStorageProvider<F> view) {
        this.view = view;
    }

    /**
     * {@code provider} seen through its async view on {@code executor}; closing this closes the provider. When the
     * provider is a {@link StorageShell} with a segment store, the result is also a {@link HistorySegmentStore} whose
     * calls run on the same executor, so the kit's segment group runs too.
     */
    public static <F> AsyncViewProvider<F> over(PersistenceStorageProvider<F> provider, AsyncExecutor executor) {
        var view = AsyncStorageProvider.of(provider, executor);
        if (provider instanceof StorageShell shell && shell.hasSegmentStore()) {
            return new WithSegments<>(view, shell.segmentStore());
        }
        return new AsyncViewProvider<>(view);
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
    public void close() {
        view.provider().close();
    }

    /** The view of a provider with a segment store: segment calls run on the view's executor too. */
    private static final class WithSegments<F> extends AsyncViewProvider<F> implements HistorySegmentStore {
        private final HistorySegmentStore segments;
        private final AsyncExecutor executor;

        WithSegments(AsyncStorageProvider<F> view, HistorySegmentStore segments) {
            super(view);
            this.segments = segments;
            this.executor = view.executor();
        }

        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            await(executor.submit("putSegment(" + agentId + ")", () -> {
                segments.putSegment(agentId, segmentId, content);
                return null;
            }));
        }

        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            return await(
                    executor.submit("getSegments(" + agentId + ")", () -> segments.getSegments(agentId, segmentIds)));
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return await(executor.submit("listSegments(" + agentId + ")", () -> segments.listSegments(agentId)));
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return await(executor.submit(
                    "deleteSegments(" + agentId + ")",
                    () -> segments.deleteSegments(agentId, segmentIds, writtenBefore)));
        }

        @Override
        public List<String> listSegmentAgents() {
            return await(executor.submit("listSegmentAgents()", segments::listSegmentAgents));
        }

        @Override
        public boolean incrementalByDefault() {
            return segments.incrementalByDefault();
        }
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
