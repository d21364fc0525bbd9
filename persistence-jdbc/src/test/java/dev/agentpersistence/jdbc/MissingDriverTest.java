package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.agentpersistence.StorageConfigurationException;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** A URL whose driver is not on the class path names the Maven artifact that provides it. */
class MissingDriverTest {
    private static final String MYSQL_URL = "jdbc:mysql://127.0.0.1:3306/test";

    @Test
    void aMissingDriverNamesTheArtifactToAdd() {
        assumeFalse(driverPresent(MYSQL_URL), "a driver accepting " + MYSQL_URL + " is on the test class path");
        var config = JdbcStorageConfig.custom().url(MYSQL_URL).build();

        assertThatThrownBy(() -> JdbcStorage.builder(config).build())
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("jdbc:mysql:")
                .hasMessageContaining("com.mysql:mysql-connector-j");
    }

    @Test
    void anUnknownSubprotocolNamesTheSupportedOnesAndTheirArtifacts() {
        var config =
                JdbcStorageConfig.custom().url("jdbc:oracle:thin:@//db:1521/x").build();

        assertThatThrownBy(() -> JdbcStorage.builder(config).build())
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("jdbc:oracle:thin")
                .hasMessageContaining("jdbc:postgresql: (PostgreSQL, org.postgresql:postgresql)")
                .hasMessageContaining("jdbc:mariadb: (MariaDB, org.mariadb.jdbc:mariadb-java-client)")
                .hasMessageContaining("com.h2database:h2")
                .hasMessageContaining("org.xerial:sqlite-jdbc");
    }

    private static boolean driverPresent(String url) {
        try {
            DriverManager.getDriver(url);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
