package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStorageProviderFactoryTest {
    @TempDir
    Path root;

    @Test
    void isDiscoveredByName() {
        assertThat(PersistenceStorageProviders.available())
                .extracting(PersistenceStorageProviderFactory::name)
                .contains("file");
        var config = ProviderConfig.of(Map.of("agent.persistence.file.dir", root.toString()));
        try (var provider = PersistenceStorageProviders.load("file", config)) {
            assertThat(provider)
                    .isInstanceOfSatisfying(
                            StorageShell.class,
                            file -> assertThat(file.storedForm()
                                            .orElseThrow()
                                            .writes()
                                            .incrementalHistory())
                                    .isTrue());
            provider.saveCheckpoint("a", checkpoint("a", 0));
        }
        try (var provider = PersistenceStorageProviders.load(config.with(ProviderConfig.PROVIDER, "file"))) {
            assertThat(provider.getCheckpoint("a", "cp-0")).contains(checkpoint("a", 0));
        }
    }

    @Test
    void readsEverySetting() {
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.file.dir", root.toString(),
                "AGENT_PERSISTENCE_FILE_FSYNC", "false",
                "agent.persistence.skip-corrupt", "true",
                "agent.persistence.file.temp-file-grace-period", "2h"));
        FileStorageConfig settings = FileStorageConfig.from(config);
        assertThat(settings.directory()).isEqualTo(root);
        assertThat(settings.fsync()).isFalse();
        assertThat(settings.tempFileGracePeriod()).isEqualTo(Duration.ofHours(2));
        assertThat(StorageSettings.from(config).skipCorrupt()).isTrue();
        try (var provider = new FileStorageProviderFactory().create(config)) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            assertThat(root.resolve("a")).isDirectory();
        }
    }

    @Test
    void defaultsToTheAgentCheckpointsDirectory() {
        FileStorageConfig defaults = FileStorageConfig.ofDefaults();
        assertThat(defaults.directory()).isEqualTo(Path.of("agent-checkpoints"));
        assertThat(defaults.fsync()).isTrue();
        assertThat(defaults.cleanUpOnOpen()).isTrue();
        assertThat(defaults.tempFileGracePeriod()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void rejectsInvalidSettings() {
        var config = ProviderConfig.of(
                Map.of("agent.persistence.file.dir", root.toString(), "agent.persistence.file.fsync", "sometimes"));
        assertThatThrownBy(() -> new FileStorageProviderFactory().create(config))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.file.fsync");
        assertThatThrownBy(() -> FileStorageConfig.custom().tempFileGracePeriod(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FileStorageConfig.custom().directory(" "))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConfigCanBeCopiedAndChanged() {
        var original = FileStorageConfig.custom().directory(root).journal(false).build();
        var copy = original.toBuilder().fsync(false).build();
        assertThat(copy.directory()).isEqualTo(root);
        assertThat(copy.journal()).isFalse();
        assertThat(copy.fsync()).isFalse();
        assertThat(original.fsync()).isTrue();
    }
}
