package dev.agentpersistence.examples.metrics;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.queue.QueueStore;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Simulates a flaky network in front of a real provider: every {@code n}-th save fails with
 * {@link StorageUnavailableException} before it reaches the backend (nothing is written), as a timed-out request would.
 * The pipeline retries such saves and its meters count them; the blip happens before the provider, so the storage's own
 * meters see only what reached it. Every capability of the provider is forwarded.
 *
 * @param <F> the provider's filter type
 */
public final class UnreliableNetwork<F> implements PersistenceStorageProvider<F> {
    private final PersistenceStorageProvider<F> backend;
    private final int every;
    private final AtomicLong saves = new AtomicLong();

    /** Fails every {@code every}-th save of {@code backend}. */
    public UnreliableNetwork(PersistenceStorageProvider<F> backend, int every) {
        this.backend = Objects.requireNonNull(backend, "backend");
        if (every < 2) {
            throw new IllegalArgumentException("every must be at least 2 but was " + every);
        }
        this.every = every;
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        if (saves.incrementAndGet() % every == 0) {
            throw new StorageUnavailableException(
                    "simulated network blip: save of " + agentId + " timed out",
                    new SocketTimeoutException("read timed out"));
        }
        backend.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        if (saves.incrementAndGet() % every == 0) {
            throw new StorageUnavailableException(
                    "simulated network blip: save of " + agentId + " timed out",
                    new SocketTimeoutException("read timed out"));
        }
        backend.saveCheckpointAfter(agentId, expectedHead, checkpoint);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, F filter) {
        return backend.getCheckpoints(agentId, filter);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter) {
        return backend.getLatestCheckpoint(agentId, filter);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return backend.getCheckpoints(agentId);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return backend.getLatestCheckpoint(agentId);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return backend.getCheckpoint(agentId, checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return backend.deleteCheckpoints(agentId);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return backend.deleteCheckpointsBefore(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return backend.listAgents();
    }

    @Override
    public int deleteExpired() {
        return backend.deleteExpired();
    }

    @Override
    public void checkHealth() {
        backend.checkHealth();
    }

    @Override
    public Optional<StoredForm> storedForm() {
        return backend.storedForm();
    }

    @Override
    public Optional<QueueStore> queues() {
        return backend.queues();
    }

    @Override
    public void close() {
        backend.close();
    }

    @Override
    public String toString() {
        return "UnreliableNetwork[every " + every + "th save fails, " + backend + "]";
    }
}
