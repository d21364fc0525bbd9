package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.queue.QueueStore;
import java.util.List;
import java.util.Optional;

/**
 * A provider that forwards every SPI method to another provider, the optional ones included ({@code getCheckpoint},
 * {@code saveCheckpointAfter}, {@code saveCheckpoints}, both deletions, {@code deleteExpired}, {@code listAgents},
 * {@code checkHealth}, {@code storedForm}, {@code queues} and {@code close}), so that it hides no capability of the
 * delegate.
 *
 * <p>Subclass it and override only the method a test wants to change, for example to fail one agent's reads or to let
 * another writer win a race; everything else behaves like the delegate. The one-argument {@code getCheckpoints} and
 * {@code getLatestCheckpoint} keep their defaults, so they go through the two-argument methods and see what a subclass
 * changed there.
 *
 * @param <F> the provider's filter type
 */
public class ForwardingStorageProvider<F> extends RequiredMethodsProvider<F> {

    /** @param delegate the provider every call goes to */
    public ForwardingStorageProvider(PersistenceStorageProvider<F> delegate) {
        super(delegate);
    }

    /**
     * A view of a shared provider whose {@code close} does nothing, so that code under test may close "its" provider
     * while the shared one (a heap store, say) stays usable.
     *
     * @param shared the provider to forward to
     * @param <F> the provider's filter type
     * @return the view
     */
    public static <F> ForwardingStorageProvider<F> ignoringClose(PersistenceStorageProvider<F> shared) {
        return new ForwardingStorageProvider<>(shared) {
            @Override
            public void close() {}
        };
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return delegate().getCheckpoint(agentId, checkpointId);
    }

    @Override
    public void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        delegate().saveCheckpointAfter(agentId, expectedHead, checkpoint);
    }

    @Override
    public List<SaveResult> saveCheckpoints(List<AgentCheckpoint> checkpoints) {
        return delegate().saveCheckpoints(checkpoints);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return delegate().deleteCheckpoints(agentId);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return delegate().deleteCheckpointsBefore(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return delegate().listAgents();
    }

    @Override
    public int deleteExpired() {
        return delegate().deleteExpired();
    }

    @Override
    public void checkHealth() {
        delegate().checkHealth();
    }

    @Override
    public Optional<StoredForm> storedForm() {
        return delegate().storedForm();
    }

    @Override
    public Optional<QueueStore> queues() {
        return delegate().queues();
    }

    @Override
    public void close() {
        delegate().close();
    }
}
