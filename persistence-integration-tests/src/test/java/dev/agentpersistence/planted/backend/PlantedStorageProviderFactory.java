package dev.agentpersistence.planted.backend;

import dev.agentpersistence.storage.StorageShell;

/** The provider factory of a planted backend module; it may use the storage shell's public API. */
public final class PlantedStorageProviderFactory {
    /** The shell the planted backend would run under. */
    public Class<?> shell() {
        return StorageShell.class;
    }
}
