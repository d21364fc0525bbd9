package dev.agentpersistence.tck.providers;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;

/** Registers {@link ReferenceProvider} as {@code reference} on the kit's test class path. */
public final class ReferenceProviderFactory implements PersistenceStorageProviderFactory {
    @Override
    public String name() {
        return "reference";
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return new ReferenceProvider(new ReferenceStore());
    }
}
