package dev.agentpersistence.pipeline;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.tck.RequiredMethodsProvider;
import java.net.ConnectException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A real provider behind a switch that simulates a store outage: while {@link #failSaves} has saves left to fail, saves
 * matching the predicate throw {@link StorageUnavailableException} (as a provider does when its server is down) without
 * reaching the store; {@link #failLoads} does the same for lookups of the latest checkpoint. Everything else goes
 * through, except deletion and listing, which it does not support.
 */
final class OutageStorage extends RequiredMethodsProvider<CheckpointFilter> {
    private final AtomicInteger savesToFail = new AtomicInteger();
    private volatile Predicate<AgentCheckpoint> affected = cp -> true;
    private final AtomicInteger failedSaves = new AtomicInteger();
    private final AtomicInteger loadsToFail = new AtomicInteger();
    private volatile Supplier<RuntimeException> failure = () ->
            new StorageUnavailableException("checkpoint store unreachable", new ConnectException("Connection refused"));

    OutageStorage(PersistenceStorageProvider<CheckpointFilter> store) {
        super(store);
    }

    /** The next {@code count} saves matching {@code which} fail. */
    void failSaves(int count, Predicate<AgentCheckpoint> which) {
        affected = which;
        savesToFail.set(count);
    }

    /** The next {@code count} lookups of the latest checkpoint fail. */
    void failLoads(int count) {
        loadsToFail.set(count);
    }

    /**
     * Failing saves and loads throw what {@code failure} makes instead of {@link StorageUnavailableException} (a
     * provider refusing its credentials throws a {@code StorageConfigurationException}).
     */
    void failWith(Supplier<RuntimeException> failure) {
        this.failure = failure;
    }

    int failedSaves() {
        return failedSaves.get();
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        if (affected.test(checkpoint) && savesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failedSaves.incrementAndGet();
            throw failure.get();
        }
        super.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        if (loadsToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw failure.get();
        }
        return super.getLatestCheckpoint(agentId, filter);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return delegate().getCheckpoint(agentId, checkpointId);
    }

    @Override
    public void close() {
        delegate().close();
    }
}
