package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.time.Clock;
import java.util.Objects;

/**
 * Discovers {@link InMemoryStorageProvider} under the name {@value #NAME}; it reads the settings every provider shares
 * ({@link StorageSettings#from(ProviderConfig)}, incremental history on unless set).
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
        Objects.requireNonNull(config, "config");
        return new InMemoryStorageProvider(StorageSettings.from(config), Clock.systemUTC());
    }
}
