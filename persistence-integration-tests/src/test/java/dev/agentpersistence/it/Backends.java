package dev.agentpersistence.it;

import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.TestServices;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The backends of every storage provider on the test class path. A provider without settings here
 * fails the tests, so a module added to this build's dependencies cannot be left out silently.
 * Servers come from {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}, {@code AGENT_PERSISTENCE_TEST_MARIADB_URL}
 * and {@code AGENT_PERSISTENCE_TEST_REDIS_URI}, else the local defaults, via {@link TestServices}.
 */
final class Backends {
    static final String POSTGRES_ENV = "AGENT_PERSISTENCE_TEST_POSTGRES_URL";
    static final String MARIADB_ENV = "AGENT_PERSISTENCE_TEST_MARIADB_URL";
    static final String REDIS_ENV = "AGENT_PERSISTENCE_TEST_REDIS_URI";
    static final String POSTGRES_LOCAL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    static final String MARIADB_LOCAL = "jdbc:mariadb://127.0.0.1:3306/test?user=root";
    static final String REDIS_LOCAL = "redis://127.0.0.1:6379";

    /** Tables of server databases get this prefix, apart from other modules' tests. */
    private static final String TABLE_PREFIX = "agent_it_";
    /** Redis keys of this run start with this prefix. */
    private static final String REDIS_PREFIX = "agent-persistence-it:"
            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";

    private Backends() {
    }

    /** The backends for the named provider. */
    static List<Backend> of(String provider) {
        return switch (provider) {
            case "inmemory" -> List.of(new Backend("inmemory", "inmemory", dir -> ProviderConfig.empty()));
            case "file" -> List.of(new Backend("file", "file", dir -> ProviderConfig.of(Map.of(
                    "agent.persistence.file.dir", dir.resolve("checkpoints").toString()))));
            case "jdbc" -> List.of(
                    new Backend("jdbc-sqlite", "jdbc", dir -> ProviderConfig.of(Map.of(
                            "agent.persistence.jdbc.url", "jdbc:sqlite:" + dir.resolve("checkpoints.db")))),
                    new Backend("jdbc-postgresql", "jdbc", dir -> serverDatabase("PostgreSQL", POSTGRES_ENV, POSTGRES_LOCAL)),
                    new Backend("jdbc-mariadb", "jdbc", dir -> serverDatabase("MariaDB", MARIADB_ENV, MARIADB_LOCAL)));
            case "redis" -> List.of(new Backend("redis", "redis", dir -> ProviderConfig.of(Map.of(
                    "agent.persistence.redis.uri",
                    TestServices.locate("Redis", REDIS_ENV, REDIS_LOCAL, Backends::redisAnswers, null),
                    "agent.persistence.redis.key-prefix", REDIS_PREFIX))));
            default -> throw new IllegalStateException("Storage provider '" + provider + "' is on the test class path "
                    + "but " + Backends.class.getName() + " has no test settings for it; add them");
        };
    }

    /** Every backend of every provider found by discovery, in provider-name order. */
    static List<Backend> available() {
        var backends = new ArrayList<Backend>();
        for (PersistenceStorageProviderFactory factory : PersistenceStorageProviders.available()) {
            backends.addAll(of(factory.name()));
        }
        return backends;
    }

    private static ProviderConfig serverDatabase(String service, String env, String localDefault) {
        String url = TestServices.locate(service, env, localDefault, Backends::jdbcAnswers, null);
        return ProviderConfig.of(Map.of("agent.persistence.jdbc.url", url,
                "agent.persistence.jdbc.table-prefix", TABLE_PREFIX,
                "agent.persistence.jdbc.pool-size", "4"));
    }

    private static boolean jdbcAnswers(String url) {
        var properties = new Properties();
        properties.setProperty("connectTimeout", url.startsWith("jdbc:postgresql:") ? "2" : "2000");
        try (var connection = DriverManager.getConnection(url, properties)) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Whether a Redis server answers an inline PING at {@code uri} within a second. */
    private static boolean redisAnswers(String uri) {
        try {
            URI parsed = URI.create(uri);
            try (var socket = new Socket()) {
                socket.connect(new InetSocketAddress(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort()), 1000);
                socket.setSoTimeout(1000);
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] reply = in.readNBytes(5);
                // +PONG without a password; -NOAUTH means a server is there and the URI must carry credentials.
                return reply.length > 0 && (reply[0] == '+' || reply[0] == '-');
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
