package dev.agentpersistence.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.metrics.MeteredStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PersistenceStorageProviders.load} hands out what the factory built: the stored form, incremental history
 * included, belongs to the storage shell a factory builds, never to discovery.
 */
class DefaultWrappingTest {

    /** Discovered under "segmented". */
    public static final class SegmentedFactory implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "segmented";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return new SegmentedHeapStorage();
        }
    }

    @TempDir
    Path dir;

    private ClassLoader loader() throws IOException {
        Path file = dir.resolve("META-INF/services/" + PersistenceStorageProviderFactory.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, SegmentedFactory.class.getName() + "\n", StandardCharsets.UTF_8);
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    void discoveryHandsOutWhatTheFactoryBuilt() throws IOException {
        var loaded = PersistenceStorageProviders.load(
                "segmented", ProviderConfig.of(Map.of("agent.persistence.history.block-size", "8")), loader());
        assertThat(loaded).isInstanceOf(SegmentedHeapStorage.class);
        assertThat(MeteredStorageProvider.defaultProviderName(loaded)).isEqualTo("segmentedheapstorage");
    }

    @Test
    void theSettingDoesNotWrapEither() throws IOException {
        var loaded = PersistenceStorageProviders.load(
                ProviderConfig.of(Map.of(
                        "AGENT_PERSISTENCE_HISTORY_INCREMENTAL", "true", "agent.persistence.provider", "segmented")),
                loader());
        assertThat(loaded).isInstanceOf(SegmentedHeapStorage.class);
    }
}
