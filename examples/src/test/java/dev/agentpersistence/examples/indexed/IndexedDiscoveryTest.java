package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The indexed example is found through {@code META-INF/services} like the built-in providers. */
class IndexedDiscoveryTest extends DiscoveryKit {
    @TempDir
    Path directory;

    @Override
    protected String providerName() {
        return IndexedStorageProviderFactory.NAME;
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(
                Map.of(IndexedStorageProviderFactory.URL.key(), "jdbc:h2:file:" + directory.resolve("discovered")));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }
}
