package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider in the shape of the smallest custom provider the SPI allows: it forwards only the three abstract methods
 * to another provider and leaves every default method (lookup by id, deletion, {@code listAgents}, {@code close}) as
 * the interface defines it.
 *
 * <p>Use it to test code against a provider that supports nothing optional; subclass it to change what one of the three
 * methods does. {@link ForwardingStorageProvider} forwards the optional methods too.
 *
 * @param <F> the provider's filter type
 */
public class RequiredMethodsProvider<F> implements PersistenceStorageProvider<F> {
    private final PersistenceStorageProvider<F> delegate;

    /** @param delegate the provider that answers the three required methods */
    public RequiredMethodsProvider(PersistenceStorageProvider<F> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The provider every forwarded call goes to. */
    protected final PersistenceStorageProvider<F> delegate() {
        return delegate;
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, F filter) {
        return delegate.getCheckpoints(agentId, filter);
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        delegate.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter) {
        return delegate.getLatestCheckpoint(agentId, filter);
    }
}
