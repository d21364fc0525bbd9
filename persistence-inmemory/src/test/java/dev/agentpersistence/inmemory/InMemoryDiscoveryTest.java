package dev.agentpersistence.inmemory;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.DiscoveryKit;

/** {@code inmemory} is discovered through {@link java.util.ServiceLoader}. */
class InMemoryDiscoveryTest extends DiscoveryKit {

    @Override
    protected String providerName() {
        return "inmemory";
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.empty();
    }

    @Override
    protected Class<?> expectedProviderType() {
        return InMemoryStorageProvider.class;
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }
}
