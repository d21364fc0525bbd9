package dev.agentpersistence.jdbc;

import dev.agentpersistence.tck.TestServices;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The real PostgreSQL and MariaDB servers the tests use: the JDBC URL in {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL} /
 * {@code AGENT_PERSISTENCE_TEST_MARIADB_URL}, else the local server on the loopback, else a Testcontainers container
 * when Docker works, else the test is skipped (or fails when services are required).
 */
final class TestServers {

    private TestServers() {}

    /** A JDBC URL (with credentials) of a reachable PostgreSQL. */
    static String postgresUrl() {
        return TestServices.postgresUrl(() -> PostgresContainer.URL);
    }

    /** A JDBC URL (with credentials) of a reachable MariaDB. */
    static String mariaDbUrl() {
        return TestServices.mariadbUrl(() -> MariaDbContainer.URL);
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
            return Optional.of(
                    withCredentials(container.getJdbcUrl(), container.getUsername(), container.getPassword()));
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
            return Optional.of(
                    withCredentials(container.getJdbcUrl(), container.getUsername(), container.getPassword()));
        }
    }
}
