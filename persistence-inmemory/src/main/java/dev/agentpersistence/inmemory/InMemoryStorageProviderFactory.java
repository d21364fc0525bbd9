package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;

/**
 * Discovers the in-memory provider under the name {@value #NAME}: {@link InMemoryStorage#builder()} with the keys every
 * provider shares.
 */
public final class InMemoryStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The name that selects this provider. */
    public static final String NAME = "inmemory";

    @Override
    public String name() {
        return NAME;
    }

    /** A new, empty store; each call returns an independent one. */
    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return InMemoryStorage.builder().config(config).build();
    }
}
