package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.StorageUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Outages on a redis-server this test starts on its own free port (never the shared server): calls fail with
 * {@link StorageUnavailableException} naming the endpoint, password hidden, and the same provider instance works again
 * once the server is back on the same port.
 */
class RedisOutageTest {
    private static final String PASSWORD = "s3cret-Pw";

    @Test
    void sameInstanceRecoversAfterTheServerComesBack(@TempDir Path dir) {
        try (var server = RedisServerProcess.start(
                "Redis (private server of the outage test)", dir, List.of("--requirepass", PASSWORD))) {
            String uri = "redis://:" + PASSWORD + "@127.0.0.1:" + server.port() + "/0";
            var config = RedisStorageConfig.custom()
                    .uri(uri)
                    .keyPrefix("outage:")
                    .connectTimeout(Duration.ofMillis(500))
                    .socketTimeout(Duration.ofSeconds(2))
                    .poolMaxWait(Duration.ofMillis(500))
                    .build();
            try (var provider = RedisStorage.builder(config).build()) {
                provider.saveCheckpoint("agent", Fixtures.simple("agent", 0));
                assertThat(provider.getCheckpoints("agent")).hasSize(1);

                server.stop();
                assertUnavailable(() -> provider.saveCheckpoint("agent", Fixtures.simple("agent", 1)), server.port());
                assertUnavailable(() -> provider.getCheckpoints("agent"), server.port());
                assertUnavailable(() -> provider.getLatestCheckpoint("agent"), server.port());
                assertUnavailable(() -> provider.getCheckpoint("agent", "cp-0"), server.port());
                assertUnavailable(provider::listAgents, server.port());
                assertUnavailable(() -> provider.deleteCheckpointsBefore("agent", 1), server.port());

                server.start();
                // the restarted server keeps nothing on disk, so it starts empty
                assertThat(provider.getCheckpoints("agent")).isEmpty();
                provider.saveCheckpoint("agent", Fixtures.simple("agent", 1));
                assertThat(provider.getCheckpoints("agent")).containsExactly(Fixtures.simple("agent", 1));
                assertThat(provider.listAgents()).containsExactly("agent");
            }
        }
    }

    /**
     * A pooled connection is pinged on borrow only after a second idle (busy callers skip the round trip); the
     * connection a restart left behind has been idle longer, so the first call after the restart does not fail.
     */
    @Test
    void aConnectionIdleAcrossARestartIsReplacedBeforeUse(@TempDir Path dir) throws InterruptedException {
        try (var server = RedisServerProcess.start("Redis (private server of the outage test)", dir, List.of())) {
            var config = RedisStorageConfig.custom()
                    .uri("redis://127.0.0.1:" + server.port())
                    .keyPrefix("outage:")
                    .connectTimeout(Duration.ofMillis(500))
                    .socketTimeout(Duration.ofSeconds(2))
                    .build();
            try (var provider = RedisStorage.builder(config).build()) {
                provider.saveCheckpoint("agent", Fixtures.simple("agent", 0));
                server.stop();
                server.start();
                Thread.sleep(1_100);
                assertThat(provider.getCheckpoints("agent")).isEmpty();
            }
        }
    }

    @Test
    void unreachableClusterIsReportedWhenTheProviderIsCreated() {
        int port = RedisServerProcess.freePort(false);
        var config = RedisStorageConfig.custom()
                .clusterNodes(List.of("127.0.0.1:" + port))
                .connectTimeout(Duration.ofMillis(300))
                .socketTimeout(Duration.ofMillis(300))
                .build();
        assertThatThrownBy(() -> RedisStorage.builder(config).build())
                .isInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining("cluster 127.0.0.1:" + port)
                .hasCauseInstanceOf(JedisException.class);
    }

    @Test
    void unreachableServerIsReportedOnFirstUseWithThePasswordHidden() {
        int port = RedisServerProcess.freePort(false);
        var config = RedisStorageConfig.custom()
                .uri("redis://user:" + PASSWORD + "@127.0.0.1:" + port)
                .connectTimeout(Duration.ofMillis(300))
                .build();
        try (var provider = RedisStorage.builder(config).build()) {
            assertThat(provider.toString()).doesNotContain(PASSWORD);
            assertUnavailable(() -> provider.getCheckpoints("agent"), port);
        }
    }

    private static void assertUnavailable(Runnable call, int port) {
        assertThatThrownBy(call::run)
                .isInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageContaining("****")
                .hasMessageNotContaining(PASSWORD)
                .cause()
                .isInstanceOf(JedisException.class);
    }
}
