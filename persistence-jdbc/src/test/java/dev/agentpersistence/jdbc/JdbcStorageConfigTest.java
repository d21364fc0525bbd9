package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JdbcStorageConfigTest {

    @Test
    void defaults() {
        var config = JdbcStorageConfig.ofDefaults();
        assertThat(config.url()).isEqualTo("jdbc:sqlite:agent-checkpoints.db");
        assertThat(config.user()).isEmpty();
        assertThat(config.password()).isEmpty();
        assertThat(config.poolSize()).isEqualTo(10);
        assertThat(config.tablePrefix()).isEqualTo("agent_");
        assertThat(config.migrate()).isTrue();
        assertThat(config.connectionTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.busyTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(JdbcStorageConfig.from(ProviderConfig.empty()))
                .usingRecursiveComparison()
                .isEqualTo(config);
    }

    @Test
    void everyKeyIsRead() {
        var config = JdbcStorageConfig.from(ProviderConfig.of(Map.of(
                "agent.persistence.jdbc.url", "jdbc:postgresql://db:5432/app",
                "agent.persistence.jdbc.user", "app",
                "agent.persistence.jdbc.password", "s3cret",
                "agent.persistence.jdbc.pool-size", "4",
                "agent.persistence.jdbc.table-prefix", "ckpt_",
                "agent.persistence.jdbc.migrate", "false",
                "agent.persistence.jdbc.connection-timeout", "750ms",
                "agent.persistence.jdbc.busy-timeout", "2s")));
        assertThat(config.url()).isEqualTo("jdbc:postgresql://db:5432/app");
        assertThat(config.user()).contains("app");
        assertThat(config.password()).contains("s3cret");
        assertThat(config.poolSize()).isEqualTo(4);
        assertThat(config.tablePrefix()).isEqualTo("ckpt_");
        assertThat(config.migrate()).isFalse();
        assertThat(config.connectionTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(config.busyTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.toString()).doesNotContain("s3cret").contains("****");
        assertThat(config.toBuilder().build()).usingRecursiveComparison().isEqualTo(config);
    }

    @Test
    void passwordsInTheUrlAreHiddenInToString() {
        var config = JdbcStorageConfig.custom()
                .url("jdbc:postgresql://app:s3cret@db/app")
                .build();
        assertThat(config.toString()).doesNotContain("s3cret");
    }

    @Test
    void invalidValuesAreRejected() {
        var builder = JdbcStorageConfig.custom();
        assertThatThrownBy(() -> builder.url("postgresql://db")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.poolSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.tablePrefix("Agent_")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.tablePrefix("x; DROP TABLE y")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.tablePrefix("a".repeat(33))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.connectionTimeout(Duration.ofMillis(100)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.busyTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.url(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() ->
                        JdbcStorageConfig.from(ProviderConfig.of(Map.of("agent.persistence.jdbc.pool-size", "many"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("pool-size");
    }

    @Test
    void anInMemorySqliteUrlIsRefusedWithAReason() {
        var config = JdbcStorageConfig.custom().url("jdbc:sqlite::memory:").build();
        assertThatThrownBy(() -> JdbcStorage.builder(config).build())
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("in-memory SQLite");
    }
}
