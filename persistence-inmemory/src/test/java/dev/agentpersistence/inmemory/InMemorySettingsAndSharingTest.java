package dev.agentpersistence.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.backend.WrittenForm;
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
        try (var inCode = InMemoryStorage.builder().build();
                var discovered = (StorageShell) new InMemoryStorageProviderFactory().create(ProviderConfig.empty());
                var switchedOff = (StorageShell) new InMemoryStorageProviderFactory()
                        .create(ProviderConfig.of(Map.of("agent.persistence.history.incremental", "false")))) {
            assertThat(inCode.storedForm().orElseThrow().writes().incrementalHistory())
                    .isTrue();
            assertThat(discovered.storedForm().orElseThrow().writes().incrementalHistory())
                    .isTrue();
            assertThat(switchedOff.storedForm().orElseThrow().writes().incrementalHistory())
                    .isFalse();
            var defaults = StorageSettings.ofDefaults().layers();
            assertThat(inCode.storedForm().orElseThrow().writes())
                    .extracting(WrittenForm::compression, WrittenForm::checksum, WrittenForm::encryption)
                    .containsExactly(defaults.compresses(), defaults.checksum(), defaults.encrypts());
        }
    }

    @Test
    void aClosingShellLeavesTheOthersOverTheSameBackendWorking() {
        var backend = new InMemoryStorageBackend(Clock.systemUTC());
        var first = StorageShell.builder(backend)
                .settings(StorageSettings.ofDefaults())
                .clock(Clock.systemUTC())
                .build();
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
