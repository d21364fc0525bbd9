package dev.agentpersistence.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IncrementalHistoryConfigTest {

    @Test
    void defaults() {
        var config = IncrementalHistoryConfig.ofDefaults();
        assertThat(config.blockSize()).isEqualTo(16);
        assertThat(config.tierSizes()).containsExactly(4096, 256);
        assertThat(config.gracePeriod()).isEqualTo(Duration.ofHours(1));
        assertThat(config.cachedAgents()).isEqualTo(1024);
        assertThat(config.cachedMessages()).isEqualTo(200_000);
    }

    @Test
    void tiersMustNestInsideEachOtherAndTheBlockSize() {
        assertThat(IncrementalHistoryConfig.custom()
                        .blockSize(8)
                        .tierSizes(List.of(512, 64))
                        .build()
                        .tierSizes())
                .containsExactly(512, 64);
        assertThat(IncrementalHistoryConfig.custom()
                        .tierSizes(List.of())
                        .build()
                        .tierSizes())
                .isEmpty();
        for (var bad : List.of(List.of(256, 4096), List.of(4096, 250), List.of(16), List.of(4000, 256))) {
            assertThatThrownBy(() ->
                            IncrementalHistoryConfig.custom().tierSizes(bad).build())
                    .as("%s", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> IncrementalHistoryConfig.custom().blockSize(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IncrementalHistoryConfig.custom().gracePeriod(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IncrementalHistoryConfig.custom().cachedAgents(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IncrementalHistoryConfig.custom().cachedMessages(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsProviderConfigKeys() {
        var config = IncrementalHistoryConfig.of(ProviderConfig.of(Map.of(
                "AGENT_PERSISTENCE_HISTORY_BLOCK_SIZE", "8",
                "agent.persistence.history.tier-sizes", "1024, 128",
                "agent.persistence.history.grace-period", "10m",
                "agent.persistence.history.cached-agents", "7",
                "agent.persistence.history.cached-messages", "1000")));
        assertThat(config.blockSize()).isEqualTo(8);
        assertThat(config.tierSizes()).containsExactly(1024, 128);
        assertThat(config.gracePeriod()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.cachedAgents()).isEqualTo(7);
        assertThat(config.cachedMessages()).isEqualTo(1000);
        assertThat(IncrementalHistoryConfig.from(config).build()).hasToString(config.toString());
        assertThatThrownBy(() -> IncrementalHistoryConfig.of(
                        ProviderConfig.of(Map.of("agent.persistence.history.tier-sizes", "a,b"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("tier-sizes");
        assertThatThrownBy(() -> IncrementalHistoryConfig.of(
                        ProviderConfig.of(Map.of("agent.persistence.history.tier-sizes", "100"))))
                .isInstanceOf(PersistenceException.class);
    }
}
