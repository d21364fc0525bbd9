package dev.agentpersistence.file;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The discovery kit against the file provider's factory. */
class FileStorageDiscoveryTest extends DiscoveryKit {
    @TempDir
    Path root;

    @Override
    protected String providerName() {
        return FileStorageProviderFactory.NAME;
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(FileStorageConfig.DIRECTORY.key(), root.toString()));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }
}
