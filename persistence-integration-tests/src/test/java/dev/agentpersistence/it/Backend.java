package dev.agentpersistence.it;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * One storage backend the tests run against: a provider found by discovery, and the settings that give it a store for
 * one test. Settings that need a server locate it when the test opens the backend, so a missing server skips (or, when
 * services are required, fails) that test only.
 *
 * @param label how the backend shows in test names
 * @param provider the factory name ({@code PersistenceStorageProviderFactory#name()})
 * @param settings the settings for a store under the test's temporary directory
 */
record Backend(String label, String provider, Function<Path, ProviderConfig> settings) {
    Backend {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(settings, "settings");
    }

    /** A provider over this backend's store for the test owning {@code dir}; every call shares that store. */
    PersistenceStorageProvider<CheckpointFilter> open(Path dir) {
        return PersistenceStorageProviders.load(provider, settings.apply(dir));
    }

    @Override
    public String toString() {
        return label;
    }
}
