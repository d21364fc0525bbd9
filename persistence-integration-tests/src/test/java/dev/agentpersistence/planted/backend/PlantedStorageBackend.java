package dev.agentpersistence.planted.backend;

import dev.agentpersistence.internal.StorageChecks;
import dev.agentpersistence.storage.internal.FilterAttributes;

/** A planted backend that checks ids itself and reads filter attributes: work the storage shell owns. */
public final class PlantedStorageBackend {
    /** Checks the id the shell has already checked. */
    public String insert(String agentId) {
        return StorageChecks.requireAgentId(agentId);
    }

    /** Names the shell's internal filter attributes. */
    public Class<?> attributes() {
        return FilterAttributes.class;
    }
}
