package dev.agentpersistence;

import dev.agentpersistence.spi.PersistenceStorageProviders;

/**
 * A planted type of the root package (test code, for {@code ArchitectureRulesTest}) that depends on a package below the
 * root, as only the facade may.
 */
public final class PlantedDataModelType {
    /** Reaches the provider discovery below the root. */
    public Class<?> discovery() {
        return PersistenceStorageProviders.class;
    }
}
