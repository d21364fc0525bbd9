package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.metrics.MeteredStorageProvider;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;

/** What every auto-configured provider bean goes through, whichever way it was built. */
final class StorageProviderBeans {
    private StorageProviderBeans() {}

    /** {@code provider}, metered when the application has one {@link MeterRegistry}. */
    static <F> PersistenceStorageProvider<F> metered(
            PersistenceStorageProvider<F> provider, ObjectProvider<MeterRegistry> meterRegistry) {
        MeterRegistry registry = meterRegistry.getIfUnique();
        return registry == null ? provider : MeteredStorageProvider.wrap(provider, registry);
    }

    /** The provider underneath any metrics wrappers. */
    static PersistenceStorageProvider<?> unwrap(PersistenceStorageProvider<?> provider) {
        PersistenceStorageProvider<?> current = provider;
        while (current instanceof MeteredStorageProvider<?> metered) {
            current = metered.delegate();
        }
        return current;
    }
}
