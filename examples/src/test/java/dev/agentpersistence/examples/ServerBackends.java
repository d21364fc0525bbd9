package dev.agentpersistence.examples;

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
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real servers the examples' tests switch {@code --storage} to, located like every other
 * module's tests: {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}, {@code …_MARIADB_URL},
 * {@code …_REDIS_URI}, else the local defaults (skipped, or failed when servers are required).
 * Tables and keys get a per-run prefix, apart from other modules' data.
 */
public final class ServerBackends {
    /** Extra settings isolating this test run's tables and keys on shared servers. */
    public static final ProviderConfig ISOLATION = ProviderConfig.of(Map.of(
            "agent.persistence.jdbc.table-prefix", "examples_",
            "agent.persistence.jdbc.pool-size", "4",
            "agent.persistence.redis.key-prefix", "agent-persistence-examples:"
                    + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":"));

    private ServerBackends() {
    }

    /** The {@code --storage} value of a reachable PostgreSQL. */
    public static String postgres() {
        return TestServices.locate("PostgreSQL", "AGENT_PERSISTENCE_TEST_POSTGRES_URL",
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres", ServerBackends::jdbcAnswers, null);
    }

    /** The {@code --storage} value of a reachable MariaDB. */
    public static String mariadb() {
        return TestServices.locate("MariaDB", "AGENT_PERSISTENCE_TEST_MARIADB_URL",
                "jdbc:mariadb://127.0.0.1:3306/test?user=root", ServerBackends::jdbcAnswers, null);
    }

    /** The {@code --storage} value of a reachable Redis. */
    public static String redis() {
        return TestServices.locate("Redis", "AGENT_PERSISTENCE_TEST_REDIS_URI", "redis://127.0.0.1:6379",
                ServerBackends::redisAnswers, null);
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
                byte[] reply = in.readNBytes(1);
                return reply.length == 1 && (reply[0] == '+' || reply[0] == '-');
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
