package dev.agentpersistence.tck;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the real server a provider's tests run against (PostgreSQL, MariaDB, Redis, …).
 *
 * <p>Order: the endpoint in the environment variable, else the well-known local default when it answers, else a
 * container when the caller can start one (Testcontainers with a working Docker). When none is found the test is
 * skipped with the reason, or fails when {@value #REQUIRE_SERVICES} is {@code true} (as in CI), so a missing server is
 * never silently skipped there.
 */
public final class TestServices {
    /** Environment variable (or system property) that turns a missing server into a failure. */
    public static final String REQUIRE_SERVICES = "AGENT_PERSISTENCE_TEST_REQUIRE_SERVICES";
    /** Environment variable naming a PostgreSQL JDBC URL with credentials. */
    public static final String POSTGRES_URL_ENV = "AGENT_PERSISTENCE_TEST_POSTGRES_URL";
    /** Environment variable naming a MariaDB/MySQL JDBC URL with credentials. */
    public static final String MARIADB_URL_ENV = "AGENT_PERSISTENCE_TEST_MARIADB_URL";
    /** Environment variable naming a Redis URI. */
    public static final String REDIS_URI_ENV = "AGENT_PERSISTENCE_TEST_REDIS_URI";
    /** The local PostgreSQL tried when {@link #POSTGRES_URL_ENV} is unset. */
    public static final String POSTGRES_LOCAL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    /** The local MariaDB tried when {@link #MARIADB_URL_ENV} is unset. */
    public static final String MARIADB_LOCAL = "jdbc:mariadb://127.0.0.1:3306/test?user=root";
    /** The local Redis tried when {@link #REDIS_URI_ENV} is unset. */
    public static final String REDIS_LOCAL = "redis://127.0.0.1:6379";

    private TestServices() {}

    /** Whether missing servers fail the build. */
    public static boolean servicesRequired() {
        String value = System.getProperty(REQUIRE_SERVICES, System.getenv(REQUIRE_SERVICES));
        return value != null && value.trim().equalsIgnoreCase("true");
    }

    /**
     * Finds an endpoint for {@code service}.
     *
     * @param service a name for messages ("PostgreSQL")
     * @param environmentVar the variable that names the endpoint explicitly
     * @param localDefault the endpoint to try when the variable is unset
     * @param reachable probes an endpoint; must return quickly and not throw
     * @param container starts a container and returns its endpoint, or empty when Docker is unavailable
     * @return a reachable endpoint; never returns without one (skips or fails instead)
     */
    public static String locate(
            String service,
            String environmentVar,
            String localDefault,
            Predicate<String> reachable,
            Supplier<Optional<String>> container) {
        Objects.requireNonNull(service, "service");
        var tried = new ArrayList<String>();
        String explicit = System.getenv(environmentVar);
        if (explicit != null && !explicit.isBlank()) {
            if (reachable.test(explicit)) {
                return explicit;
            }
            tried.add(environmentVar + "=" + redact(explicit) + " did not answer");
        } else if (localDefault != null) {
            if (reachable.test(localDefault)) {
                return localDefault;
            }
            tried.add("the local default " + redact(localDefault) + " did not answer (" + environmentVar + " unset)");
        }
        if (container != null) {
            try {
                Optional<String> started = container.get();
                if (started.isPresent()) {
                    return started.get();
                }
                tried.add("no container engine (Docker) available");
            } catch (RuntimeException | LinkageError e) {
                tried.add("starting a container failed: " + e);
            }
        }
        return unavailable(service, tried);
    }

    /** A reachable PostgreSQL JDBC URL; {@code container} may be {@code null} (no container fallback). */
    public static String postgresUrl(Supplier<Optional<String>> container) {
        return locate("PostgreSQL", POSTGRES_URL_ENV, POSTGRES_LOCAL, TestServices::jdbcAnswers, container);
    }

    /** A reachable MariaDB JDBC URL; {@code container} may be {@code null} (no container fallback). */
    public static String mariadbUrl(Supplier<Optional<String>> container) {
        return locate("MariaDB", MARIADB_URL_ENV, MARIADB_LOCAL, TestServices::jdbcAnswers, container);
    }

    /** A reachable Redis URI; {@code container} may be {@code null} (no container fallback). */
    public static String redisUri(Supplier<Optional<String>> container) {
        return locate("Redis", REDIS_URI_ENV, REDIS_LOCAL, TestServices::redisAnswers, container);
    }

    /** Whether a JDBC connection to {@code url} opens and is valid within about two seconds. */
    public static boolean jdbcAnswers(String url) {
        var properties = new Properties();
        properties.setProperty("connectTimeout", url.startsWith("jdbc:postgresql:") ? "2" : "2000");
        try (var connection = DriverManager.getConnection(url, properties)) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Whether a Redis server answers an inline {@code PING} at {@code uri} within a second. A {@code -NOAUTH} error
     * counts: a server is there and the URI must carry the credentials.
     */
    public static boolean redisAnswers(String uri) {
        try {
            URI parsed = URI.create(uri);
            try (var socket = new Socket()) {
                socket.connect(
                        new InetSocketAddress(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort()), 1000);
                socket.setSoTimeout(1000);
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] reply = socket.getInputStream().readNBytes(1);
                return reply.length == 1 && (reply[0] == '+' || reply[0] == '-');
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Skips (or, when services are required, fails) because {@code service} is missing. */
    public static <T> T unavailable(String service, List<String> reasons) {
        String message = service + " is not available for tests: " + String.join("; ", reasons);
        if (servicesRequired()) {
            throw new IllegalStateException(
                    message + ". " + REQUIRE_SERVICES + "=true, so this fails instead of skipping.");
        }
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    private static String redact(String endpoint) {
        return dev.agentpersistence.spi.ProviderConfig.redact(endpoint);
    }
}
