package dev.agentpersistence.inmemory;

import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import java.util.List;

/**
 * Discovers the in-memory provider under the name {@value #NAME}: {@link InMemoryStorage#builder()} with the keys every
 * provider shares; each {@code create} returns a new, empty, independent store.
 */
public final class InMemoryStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The name that selects this provider. */
    public static final String NAME = "inmemory";

    /** Used by {@link java.util.ServiceLoader}. */
    public InMemoryStorageProviderFactory() {
        super(
                NAME,
                List.of(),
                config -> InMemoryStorage.builder().config(config).build());
    }
}
