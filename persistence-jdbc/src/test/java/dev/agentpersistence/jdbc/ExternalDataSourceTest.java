package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A provider over a data source the application owns: the dialect is detected, the source stays open. */
class ExternalDataSourceTest {
    @TempDir
    Path dir;

    @Test
    void overAnApplicationsPoolTheDialectIsDetectedAndThePoolStaysOpen() throws Exception {
        try (TestDatabase database = TestDatabase.sqlite(dir)) {
            var hikari = new HikariConfig();
            hikari.setJdbcUrl(database.url());
            hikari.setMaximumPoolSize(2);
            try (var pool = new HikariDataSource(hikari)) {
                var provider = JdbcStorage.builder(database.config(), pool).build();
                provider.saveCheckpoint("app", JdbcProviderTestBase.checkpoint("app", 0));
                assertThat(provider.getLatestCheckpoint("app")).isPresent();
                assertThat(provider.toString()).contains("SQLite").contains(database.url());
                provider.close();
                assertThat(pool.isClosed()).isFalse();
                try (var connection = pool.getConnection();
                        var statement = connection.createStatement();
                        var rows = statement.executeQuery("PRAGMA busy_timeout")) {
                    rows.next();
                    assertThat(rows.getLong(1))
                            .as("busy timeout set on the application's connections")
                            .isEqualTo(database.config().busyTimeout().toMillis());
                }
            }
        }
    }
}
