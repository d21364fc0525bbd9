package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code rediss://} pointed at a plain-text Redis: the TLS handshake gets no answer (the server waits for the end of an
 * inline command), so it must end within the configured timeouts and say what is probably wrong.
 */
class RedisTlsMismatchTest {
    private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);

    @Test
    void aTlsUriAgainstAPlainServerFailsWithinTheTimeoutsNamingTls() {
        URI plain = URI.create(SharedRedis.uri());
        String hostAndPort = plain.getHost() + ":" + plain.getPort();
        var config = RedisStorageConfig.custom()
                .uri("rediss://" + hostAndPort)
                .connectTimeout(CONNECT_TIMEOUT)
                .socketTimeout(SOCKET_TIMEOUT)
                .build();

        long start = System.nanoTime();
        assertThatThrownBy(() -> {
                    try (var provider = RedisStorage.builder(config).build()) {
                        provider.getLatestCheckpoint("agent");
                    }
                })
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("TLS handshake with " + hostAndPort + " failed")
                .hasMessageContaining("is TLS enabled on the server?");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(CONNECT_TIMEOUT.plus(SOCKET_TIMEOUT).plus(MARGIN));
    }
}
