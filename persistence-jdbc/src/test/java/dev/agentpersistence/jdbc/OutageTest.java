package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.StorageUnavailableException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real outages without stopping the shared servers: a provider pointed at a closed port, and a provider whose path to
 * the server is cut and restored by a {@link LoopbackProxy}.
 */
class OutageTest {

    private static Supplier<TestDatabase> server(String name) {
        return switch (name) {
            case "postgres" -> TestDatabase::postgres;
            case "mariadb" -> TestDatabase::mariaDb;
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static JdbcStorageConfig.Builder quickToGiveUp(TestDatabase database, String url) {
        return database.config().toBuilder().url(url).connectionTimeout(Duration.ofMillis(1000));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void aClosedPortGivesStorageUnavailableNamingTheEndpoint(String name) throws Exception {
        try (TestDatabase database = server(name).get()) {
            int closedPort = closedPort();
            String url = withPort(database.url(), closedPort);
            try (var provider =
                    JdbcStorage.builder(quickToGiveUp(database, url).build()).build()) {
                long started = System.nanoTime();
                assertThatThrownBy(() -> provider.getCheckpoints("agent"))
                        .isInstanceOf(StorageUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + closedPort)
                        .hasCauseInstanceOf(SQLException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
                assertThatThrownBy(() -> provider.saveCheckpoint("agent", JdbcProviderTestBase.checkpoint("agent", 0)))
                        .isInstanceOf(StorageUnavailableException.class);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres", "mariadb"})
    void theSameInstanceWorksAgainWhenTheServerIsBack(String name) throws Exception {
        try (TestDatabase database = server(name).get();
                var proxy = LoopbackProxy.inFrontOf(database.url())) {
            String url = proxy.route(database.url());
            try (var provider =
                    JdbcStorage.builder(quickToGiveUp(database, url).build()).build()) {
                String agent = "outage-" + database.prefix();
                AgentCheckpoint before = JdbcProviderTestBase.checkpoint(agent, 0);
                provider.saveCheckpoint(agent, before);

                proxy.cut();
                assertThatThrownBy(() -> provider.getLatestCheckpoint(agent))
                        .isInstanceOf(StorageUnavailableException.class)
                        .hasMessageContaining("127.0.0.1:" + proxy.port())
                        .hasCauseInstanceOf(SQLException.class);
                AgentCheckpoint during = JdbcProviderTestBase.checkpoint(agent, 1);
                assertThatThrownBy(() -> provider.saveCheckpoint(agent, during))
                        .isInstanceOf(StorageUnavailableException.class);

                proxy.restore();
                assertThat(provider.getCheckpoints(agent)).containsExactly(before);
                provider.saveCheckpoint(agent, during);
                assertThat(provider.getLatestCheckpoint(agent)).contains(during);
            }
        }
    }

    private static int closedPort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code url} pointed at 127.0.0.1:{@code port}. */
    private static String withPort(String url, int port) {
        var uri = URI.create(url.substring("jdbc:".length()));
        return url.replace("//" + uri.getRawAuthority(), "//127.0.0.1:" + port);
    }
}
