package dev.agentpersistence.reliability;

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
import java.util.Properties;

/**
 * The shared PostgreSQL, MariaDB and Redis servers (never stopped by these tests), located through
 * {@link TestServices}: the endpoint from the environment, else the local default.
 */
final class SharedServers {
    static final String POSTGRES_ENV = "AGENT_PERSISTENCE_TEST_POSTGRES_URL";
    static final String MARIADB_ENV = "AGENT_PERSISTENCE_TEST_MARIADB_URL";
    static final String REDIS_ENV = "AGENT_PERSISTENCE_TEST_REDIS_URI";

    private SharedServers() {}

    static String postgres() {
        return TestServices.locate(
                "PostgreSQL",
                POSTGRES_ENV,
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres",
                SharedServers::jdbcAnswers,
                null);
    }

    static String mariadb() {
        return TestServices.locate(
                "MariaDB",
                MARIADB_ENV,
                "jdbc:mariadb://127.0.0.1:3306/test?user=root",
                SharedServers::jdbcAnswers,
                null);
    }

    static String redis() {
        return TestServices.locate("Redis", REDIS_ENV, "redis://127.0.0.1:6379", SharedServers::redisAnswers, null);
    }

    static boolean jdbcAnswers(String url) {
        var properties = new Properties();
        properties.setProperty("connectTimeout", url.startsWith("jdbc:postgresql:") ? "2" : "2000");
        try (var connection = DriverManager.getConnection(url, properties)) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    static boolean redisAnswers(String uri) {
        try {
            URI parsed = URI.create(uri);
            try (var socket = new Socket()) {
                socket.connect(
                        new InetSocketAddress(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort()), 1000);
                socket.setSoTimeout(1000);
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] reply = in.readNBytes(5);
                return reply.length > 0 && (reply[0] == '+' || reply[0] == '-');
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
