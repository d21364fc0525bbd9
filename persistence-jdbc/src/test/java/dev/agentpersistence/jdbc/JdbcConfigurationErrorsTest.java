package dev.agentpersistence.jdbc;

import static dev.agentpersistence.tck.SecretAssertions.assertNowhere;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.agentpersistence.StorageAuthenticationException;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageUnavailableException;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * What a retry cannot cure — refused credentials, an unknown role or user, an unknown database, a malformed URL — is a
 * {@link StorageConfigurationException} raised at once (not after the pool's connection timeout), with the server's own
 * reason first and no password in the message or the causes. Against the real PostgreSQL and MariaDB servers.
 */
class JdbcConfigurationErrorsTest {
    private static final Duration POOL_TIMEOUT = Duration.ofSeconds(5);
    /** Well under the pool timeout: the answer must not wait for it. */
    private static final long AT_ONCE_MILLIS = 2_500;

    private static final String WRONG_PASSWORD = "Wr0ng-Pa55-" + suffix();
    private static final String RIGHT_PASSWORD = "R1ght-Pa55-" + suffix();

    @Test
    void postgresUnknownRoleIsRefusedCredentialsAtOnce() {
        var server = Server.of(TestServers.postgresUrl());
        String role = "no_such_role_" + suffix();

        var failure =
                firstOperationFails(server.url(server.database(), "user=" + role + "&password=" + WRONG_PASSWORD));

        assertThat(failure)
                .isInstanceOf(StorageAuthenticationException.class)
                .hasMessageStartingWith("FATAL: role \"" + role + "\" does not exist")
                .hasMessageContaining("PostgreSQL database")
                .hasMessageContaining("a retry does not help");
        assertNowhere(failure, WRONG_PASSWORD);
    }

    @Test
    void postgresRoleThatMayNotLogInIsRefusedCredentialsAtOnce() throws SQLException {
        var server = Server.of(TestServers.postgresUrl());
        String role = "ap_nologin_" + suffix();
        server.admin("CREATE ROLE " + role + " NOLOGIN PASSWORD '" + RIGHT_PASSWORD + "'");
        try {
            var failure =
                    firstOperationFails(server.url(server.database(), "user=" + role + "&password=" + RIGHT_PASSWORD));

            assertThat(failure)
                    .isInstanceOf(StorageAuthenticationException.class)
                    .hasMessageStartingWith("FATAL: role \"" + role + "\" is not permitted to log in");
            assertNowhere(failure, RIGHT_PASSWORD);
        } finally {
            server.admin("DROP ROLE " + role);
        }
    }

    @Test
    void postgresWrongPasswordIsRefusedCredentialsAtOnce() throws SQLException {
        var server = Server.of(TestServers.postgresUrl());
        String role = "ap_login_" + suffix();
        server.admin("CREATE ROLE " + role + " LOGIN PASSWORD '" + RIGHT_PASSWORD + "'");
        try {
            String url = server.url(server.database(), "user=" + role + "&password=" + WRONG_PASSWORD);
            assumeFalse(
                    connects(url),
                    "this PostgreSQL trusts loopback connections (pg_hba.conf 'trust'): it accepts any password, so a "
                            + "wrong one cannot be tested here");
            var failure = firstOperationFails(url);

            assertThat(failure)
                    .isInstanceOf(StorageAuthenticationException.class)
                    .hasMessageStartingWith("FATAL: password authentication failed for user \"" + role + "\"");
            assertNowhere(failure, WRONG_PASSWORD, RIGHT_PASSWORD);
        } finally {
            server.admin("DROP ROLE " + role);
        }
    }

    @Test
    void postgresUnknownDatabaseIsAConfigurationErrorAtOnce() {
        var server = Server.of(TestServers.postgresUrl());
        String database = "no_such_db_" + suffix();

        var failure = firstOperationFails(server.url(database, server.query()));

        assertThat(failure)
                .isInstanceOf(StorageConfigurationException.class)
                .isNotInstanceOf(StorageAuthenticationException.class)
                .hasMessageStartingWith("FATAL: database \"" + database + "\" does not exist")
                .hasMessageContaining("a retry does not help");
    }

    @Test
    void mariaDbWrongPasswordIsRefusedCredentialsAtOnce() throws SQLException {
        var server = Server.of(TestServers.mariaDbUrl());
        String user = "ap_user_" + suffix();
        server.admin("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + RIGHT_PASSWORD + "'");
        server.admin("GRANT ALL ON `" + server.database() + "`.* TO '" + user + "'@'%'");
        try {
            var failure =
                    firstOperationFails(server.url(server.database(), "user=" + user + "&password=" + WRONG_PASSWORD));

            assertThat(failure)
                    .isInstanceOf(StorageAuthenticationException.class)
                    .hasMessageContaining("Access denied for user '" + user + "'")
                    .hasMessageContaining("MariaDB database");
            assertThat(failure.getMessage().indexOf("Access denied"))
                    .isLessThan(failure.getMessage().indexOf("MariaDB database"));
            assertNowhere(failure, WRONG_PASSWORD, RIGHT_PASSWORD);
        } finally {
            server.admin("DROP USER '" + user + "'@'%'");
        }
    }

    @Test
    void mariaDbUnknownUserIsRefusedCredentialsAtOnce() {
        var server = Server.of(TestServers.mariaDbUrl());
        String user = "no_such_user_" + suffix();

        var failure =
                firstOperationFails(server.url(server.database(), "user=" + user + "&password=" + WRONG_PASSWORD));

        assertThat(failure)
                .isInstanceOf(StorageAuthenticationException.class)
                .hasMessageContaining("Access denied for user '" + user + "'");
        assertNowhere(failure, WRONG_PASSWORD);
    }

    @Test
    void mariaDbDatabaseTheUserMayNotUseIsRefusedCredentialsAtOnce() throws SQLException {
        var server = Server.of(TestServers.mariaDbUrl());
        String user = "ap_user_" + suffix();
        server.admin("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + RIGHT_PASSWORD + "'");
        try {
            var failure =
                    firstOperationFails(server.url(server.database(), "user=" + user + "&password=" + RIGHT_PASSWORD));

            assertThat(failure)
                    .isInstanceOf(StorageAuthenticationException.class)
                    .hasMessageContaining("Access denied for user '" + user + "'")
                    .hasMessageContaining("to database '" + server.database() + "'");
            assertNowhere(failure, RIGHT_PASSWORD);
        } finally {
            server.admin("DROP USER '" + user + "'@'%'");
        }
    }

    @Test
    void mariaDbUnknownDatabaseIsAConfigurationErrorAtOnce() {
        var server = Server.of(TestServers.mariaDbUrl());
        String database = "no_such_db_" + suffix();

        var failure = firstOperationFails(server.url(database, server.query()));

        assertThat(failure)
                .isInstanceOf(StorageConfigurationException.class)
                .isNotInstanceOf(StorageAuthenticationException.class)
                .hasMessageContaining("Unknown database '" + database + "'")
                .hasMessageContaining("a retry does not help");
    }

    @Test
    void aMalformedPortSaysWhereTheUrlIsMalformed() {
        var config = JdbcStorageConfig.custom()
                .url("jdbc:postgresql://127.0.0.1:abc/test?password=" + WRONG_PASSWORD)
                .build();

        var failure = catchThrowable(() -> JdbcStorage.builder(config).build().close());

        assertThat(failure)
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("Malformed JDBC URL")
                .hasMessageContaining("the port 'abc' after host '127.0.0.1' is not a number (character 29)")
                .hasMessageContaining("jdbc:postgresql://host[:port]/database")
                .hasMessageNotContaining("No JDBC driver")
                .hasMessageNotContaining("add the Maven artifact");
        assertNowhere(failure, WRONG_PASSWORD);
    }

    @Test
    void aServerThatIsDownStaysTransient() {
        var config = JdbcStorageConfig.custom()
                .url("jdbc:postgresql://127.0.0.1:1/test?user=postgres")
                .connectionTimeout(Duration.ofMillis(500))
                .build();
        try (var provider = JdbcStorage.builder(config).build()) {
            assertThat(catchThrowable(() -> provider.getLatestCheckpoint("agent")))
                    .isInstanceOf(StorageUnavailableException.class)
                    .isNotInstanceOf(StorageConfigurationException.class);
        }
    }

    /** Opens a provider at {@code url} and returns what its first operation throws, checking it came at once. */
    private static Throwable firstOperationFails(String url) {
        var config = JdbcStorageConfig.custom()
                .url(url)
                .tablePrefix(TestDatabase.randomPrefix())
                .connectionTimeout(POOL_TIMEOUT)
                .build();
        try (var provider = JdbcStorage.builder(config).build()) {
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> provider.getLatestCheckpoint("agent"));
            long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            assertThat(failure).isNotNull();
            assertThat(millis)
                    .as("answered at once, not after the pool timeout of %s", POOL_TIMEOUT)
                    .isLessThan(AT_ONCE_MILLIS);
            // a second operation gives the same answer, again at once
            long again = System.nanoTime();
            assertThat(catchThrowable(() -> provider.listAgents())).isInstanceOf(failure.getClass());
            assertThat(Duration.ofNanos(System.nanoTime() - again).toMillis()).isLessThan(AT_ONCE_MILLIS);
            return failure;
        }
    }

    private static boolean connects(String url) {
        try (var connection = DriverManager.getConnection(url)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String suffix() {
        byte[] bytes = new byte[4];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** A located test server's URL taken apart: {@code jdbc:x://host:port} + {@code /database} + {@code ?query}. */
    private record Server(String adminUrl, String authority, String database, String query) {
        static Server of(String url) {
            int question = url.indexOf('?');
            String path = question < 0 ? url : url.substring(0, question);
            String query = question < 0 ? "" : url.substring(question + 1);
            int slash = path.indexOf('/', path.indexOf("://") + 3);
            return new Server(url, path.substring(0, slash), path.substring(slash + 1), query);
        }

        String url(String database, String query) {
            return authority + "/" + database + (query.isEmpty() ? "" : "?" + query);
        }

        void admin(String sql) throws SQLException {
            try (var connection = DriverManager.getConnection(adminUrl);
                    var statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }
    }
}
