package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The name of the provider {@link PersistenceStorageProviders#load(ProviderConfig)} would pick, without creating it:
 * the one named by {@value ProviderConfig#PROVIDER}, otherwise the only factory on the class path; empty when discovery
 * would fall back to the no-op provider or refuse several candidates.
 */
final class ChosenProvider {
    private ChosenProvider() {}

    static Optional<String> name(ProviderConfig config, ClassLoader classLoader) {
        Optional<String> explicit =
                config.get(ProviderConfig.PROVIDER).map(String::trim).filter(s -> !s.isEmpty());
        if (explicit.isPresent()) {
            return explicit.map(name -> name.toLowerCase(Locale.ROOT));
        }
        List<PersistenceStorageProviderFactory> factories = PersistenceStorageProviders.available(classLoader);
        return factories.size() == 1 ? Optional.of(factories.get(0).name()) : Optional.empty();
    }
}
