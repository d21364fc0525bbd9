package dev.agentpersistence.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Default settings (incremental history on unless set) and shells sharing one heap backend. */
class InMemorySettingsAndSharingTest {

    @Test
    void incrementalHistoryIsOnByDefaultInCodeAndThroughDiscovery() {
        try (var inCode = new InMemoryStorageProvider();
                var discovered = (StorageShell) new InMemoryStorageProviderFactory().create(ProviderConfig.empty());
                var switchedOff = (StorageShell) new InMemoryStorageProviderFactory()
                        .create(ProviderConfig.of(Map.of("agent.persistence.history.incremental", "false")))) {
            assertThat(inCode.settings().incrementalHistory()).isTrue();
            assertThat(discovered.settings().incrementalHistory()).isTrue();
            assertThat(switchedOff.settings().incrementalHistory()).isFalse();
            assertThat(inCode.settings().layers())
                    .isEqualTo(StorageSettings.ofDefaults().layers());
            assertThat(inCode.settings().maxCheckpointSize())
                    .isEqualTo(StorageSettings.ofDefaults().maxCheckpointSize());
        }
    }

    @Test
    void aClosingShellLeavesTheOthersOverTheSameBackendWorking() {
        var backend = new InMemoryStorageBackend(Clock.systemUTC());
        var first = new InMemoryStorageProvider(backend, InMemoryStorageProvider.defaultSettings(), Clock.systemUTC());
        var second = StorageShell.builder(backend.share())
                .settings(StorageSettings.ofDefaults())
                .build();
        first.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        second.saveCheckpoint("agent", Checkpoints.simple("agent", 1));

        first.close();
        assertThatThrownBy(() -> first.listAgents()).isInstanceOf(IllegalStateException.class);
        assertThat(second.getCheckpoints("agent"))
                .containsExactly(Checkpoints.simple("agent", 0), Checkpoints.simple("agent", 1));

        second.close();
        assertThat(backend.listAgents())
                .as("dropped when the last shell closed")
                .isEqualTo(List.of());
    }
}
