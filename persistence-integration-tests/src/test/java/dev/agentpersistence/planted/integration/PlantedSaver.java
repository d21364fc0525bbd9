package dev.agentpersistence.planted.integration;

import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;

/** A planted integration that builds its own storage module and speaks the storage shell. */
public final class PlantedSaver {
    /** Opens a storage module of its choosing instead of taking any provider. */
    public StorageShell open() {
        return InMemoryStorage.builder().build();
    }
}
