package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code jdbc} factory is discoverable and reads its keys (on an SQLite file). */
class JdbcDiscoveryTest extends DiscoveryKit {
    @TempDir
    Path dir;

    @Override
    protected String providerName() {
        return JdbcStorageProviderFactory.NAME;
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(
                JdbcStorageConfig.URL.key(),
                "jdbc:sqlite:" + dir.resolve("nested/dir/checkpoints.db"),
                JdbcStorageConfig.TABLE_PREFIX.key(),
                TestDatabase.randomPrefix(),
                JdbcStorageConfig.POOL_SIZE.key(),
                "2"));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }

    @Test
    void anUnsupportedUrlNamesTheSupportedDatabases() {
        var config = ProviderConfig.of(Map.of(JdbcStorageConfig.URL.key(), "jdbc:oracle:thin:@//db:1521/x"));
        assertThatThrownBy(() -> PersistenceStorageProviders.load(providerName(), config))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("jdbc:oracle:thin")
                .hasMessageContaining("jdbc:sqlite:")
                .hasMessageContaining("jdbc:postgresql:")
                .hasMessageContaining("jdbc:mariadb:")
                .hasMessageContaining("jdbc:h2:");
    }

    @Test
    void environmentStyleKeysAreRead() {
        var config = ProviderConfig.of(Map.of(
                "AGENT_PERSISTENCE_JDBC_URL", "jdbc:h2:file:" + dir.resolve("env"),
                "AGENT_PERSISTENCE_JDBC_TABLE_PREFIX", "envprefix_",
                "AGENT_PERSISTENCE_JDBC_POOL_SIZE", "3",
                "AGENT_PERSISTENCE_JDBC_MIGRATE", "false"));
        var parsed = JdbcStorageConfig.from(config);
        assertThat(parsed.url()).isEqualTo("jdbc:h2:file:" + dir.resolve("env"));
        assertThat(parsed.tablePrefix()).isEqualTo("envprefix_");
        assertThat(parsed.poolSize()).isEqualTo(3);
        assertThat(parsed.migrate()).isFalse();
    }

    @Test
    void aProviderBuiltInCodeReadsWhatDiscoveryWroteAndBack() {
        var config = config();
        String agent = "built-" + TestDatabase.randomPrefix();
        var saved = dev.agentpersistence.tck.Checkpoints.builder(agent, 0)
                .messageHistory(dev.agentpersistence.tck.Checkpoints.history(600))
                .build();
        var next = dev.agentpersistence.tck.Checkpoints.builder(agent, 1)
                .messageHistory(dev.agentpersistence.tck.Checkpoints.history(601))
                .build();
        try (var discovered = PersistenceStorageProviders.load(providerName(), config);
                var built = JdbcStorage.builder(JdbcStorageConfig.from(config)).build()) {
            discovered.saveCheckpoint(agent, saved);
            assertThat(built.getLatestCheckpoint(agent).orElseThrow().messageHistory())
                    .hasSize(600);
            assertThat(built.getLatestCheckpoint(agent).orElseThrow().equals(saved))
                    .isTrue();
            built.saveCheckpoint(agent, next);
            assertThat(discovered.getLatestCheckpoint(agent).orElseThrow().messageHistory())
                    .hasSize(601);
            assertThat(discovered.getCheckpoints(agent).equals(java.util.List.of(saved, next)))
                    .isTrue();
        }
    }
}
