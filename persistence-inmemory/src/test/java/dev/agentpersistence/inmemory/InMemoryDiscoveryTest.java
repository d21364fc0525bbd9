package dev.agentpersistence.inmemory;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
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
        return StorageShell.class;
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }
}
