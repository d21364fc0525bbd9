package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The custom provider is found through {@code META-INF/services} like the built-in ones. */
class JsonLinesDiscoveryTest extends DiscoveryKit {
    @TempDir
    Path directory;

    @Override
    protected String providerName() {
        return JsonLinesStorageProviderFactory.NAME;
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(
                JsonLinesStorageProviderFactory.DIRECTORY.key(),
                directory.resolve("discovered").toString()));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }
}
