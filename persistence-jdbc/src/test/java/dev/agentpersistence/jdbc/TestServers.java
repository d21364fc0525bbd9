package dev.agentpersistence.jdbc;

import dev.agentpersistence.tck.TestServices;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The real PostgreSQL and MariaDB servers the tests use: the JDBC URL in
 * {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL} / {@code AGENT_PERSISTENCE_TEST_MARIADB_URL}, else the
 * local server on the loopback, else a Testcontainers container when Docker works, else the test is
 * skipped (or fails when services are required).
 */
final class TestServers {
    static final String POSTGRES_ENV = "AGENT_PERSISTENCE_TEST_POSTGRES_URL";
    static final String MARIADB_ENV = "AGENT_PERSISTENCE_TEST_MARIADB_URL";
    static final String POSTGRES_LOCAL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    static final String MARIADB_LOCAL = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    private TestServers() {
    }

    /** A JDBC URL (with credentials) of a reachable PostgreSQL. */
    static String postgresUrl() {
        return TestServices.locate("PostgreSQL", POSTGRES_ENV, POSTGRES_LOCAL, TestServers::answers,
                () -> PostgresContainer.URL);
    }

    /** A JDBC URL (with credentials) of a reachable MariaDB. */
    static String mariaDbUrl() {
        return TestServices.locate("MariaDB", MARIADB_ENV, MARIADB_LOCAL, TestServers::answers,
                () -> MariaDbContainer.URL);
    }

    /** Whether a connection to {@code url} opens within about two seconds. */
    static boolean answers(String url) {
        var properties = new Properties();
        properties.setProperty("connectTimeout", url.startsWith("jdbc:postgresql:") ? "2" : "2000");
        try (var connection = DriverManager.getConnection(url, properties)) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean dockerWorks() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static String withCredentials(String jdbcUrl, String user, String password) {
        return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "user=" + user + "&password=" + password;
    }

    /** One PostgreSQL container per test JVM, started on first use; Testcontainers removes it at exit. */
    private static final class PostgresContainer {
        static final Optional<String> URL = start();

        private static Optional<String> start() {
            if (!dockerWorks()) {
                return Optional.empty();
            }
            var container = new PostgreSQLContainer("postgres:16-alpine").withDatabaseName("test");
            container.start();
            return Optional.of(withCredentials(container.getJdbcUrl(), container.getUsername(), container.getPassword()));
        }
    }

    /** One MariaDB container per test JVM, started on first use; Testcontainers removes it at exit. */
    private static final class MariaDbContainer {
        static final Optional<String> URL = start();

        private static Optional<String> start() {
            if (!dockerWorks()) {
                return Optional.empty();
            }
            var container = new MariaDBContainer("mariadb:11").withDatabaseName("test");
            container.start();
            return Optional.of(withCredentials(container.getJdbcUrl(), container.getUsername(), container.getPassword()));
        }
    }
}
