package dev.agentpersistence.pipeline;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.util.Map;

/** The real providers the tests run on, found through discovery as users find them. */
final class Storages {
    private Storages() {}

    static PersistenceStorageProvider<CheckpointFilter> inMemory() {
        return PersistenceStorageProviders.load("inmemory", ProviderConfig.empty());
    }

    static PersistenceStorageProvider<CheckpointFilter> inMemory(ObservationRegistry observations) {
        return PersistenceStorageProviders.load(
                "inmemory", ProviderConfig.empty().withObservations(observations));
    }

    static PersistenceStorageProvider<CheckpointFilter> file(Path directory) {
        return PersistenceStorageProviders.load(
                "file", ProviderConfig.of(Map.of("agent.persistence.file.dir", directory.toString())));
    }
}
