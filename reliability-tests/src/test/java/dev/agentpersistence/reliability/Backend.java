package dev.agentpersistence.reliability;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One storage backend, opened through discovery ({@link PersistenceStorageProviders#load(String, ProviderConfig)})
 * exactly as an application would: a provider name and its settings.
 *
 * @param label how the backend shows in test names and figures
 * @param provider the factory name
 * @param settings the backend's settings (codec settings are added per test)
 * @param raw direct access to stored documents, or {@code null} where there are none (in-memory)
 */
record Backend(String label, String provider, Map<String, String> settings, Supplier<RawStore> raw) {
    Backend {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(provider, "provider");
        settings = Map.copyOf(settings);
    }

    /** A provider over this backend with {@code extra} settings on top. */
    PersistenceStorageProvider<CheckpointFilter> open(Map<String, String> extra) {
        var config = ProviderConfig.of(settings);
        for (var e : extra.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        return PersistenceStorageProviders.load(provider, config);
    }

    PersistenceStorageProvider<CheckpointFilter> open() {
        return open(Map.of());
    }

    boolean hasRawAccess() {
        return raw != null;
    }

    @Override
    public String toString() {
        return label;
    }
}
