package dev.agentpersistence.redis;

import static dev.agentpersistence.tck.SecretAssertions.assertNowhere;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Passwords of Redis URIs — with an unencoded {@code @}, percent-encoded, refused by the server — appear in no
 * {@code toString}, exception message or cause.
 */
class RedisCredentialRedactionTest {
    private static final String SECRET = "S3CRET";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "redis://:abc@defS3CRET@127.0.0.1:6379",
                "redis://app:abc@defS3CRET@127.0.0.1:6379/0",
                "redis://:abc S3CRET@127.0.0.1:6379",
                "rediss://app:abc@S3CRET@127.0.0.1"
            })
    void aUriWithAnUnencodedPasswordIsRefusedWithoutShowingIt(String uri) {
        assertThatThrownBy(() -> RedisStorageConfig.custom().uri(uri))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("percent-encoded")
                .satisfies(e -> assertNowhere(e, SECRET, "abc"));
        var settings =
                ProviderConfig.of(Map.of(ProviderConfig.PROVIDER, "redis", RedisStorageConfig.URI_SETTING.key(), uri));
        assertThat(settings.toString()).doesNotContain(SECRET).doesNotContain("abc");
        assertThatThrownBy(() -> PersistenceStorageProviders.load(settings))
                .isInstanceOf(PersistenceException.class)
                .satisfies(e -> assertNowhere(e, SECRET, "abc"));
    }

    @Test
    void anUnreachableServerNeverShowsThePassword() {
        var config = RedisStorageConfig.custom()
                .uri("redis://app:p%40ss" + SECRET + "@127.0.0.1:1")
                .connectTimeout(Duration.ofMillis(500))
                .build();
        assertThat(config.toString()).doesNotContain(SECRET);
        try (var provider = RedisStorage.builder(config).build()) {
            assertThat(provider.toString()).doesNotContain(SECRET);
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:1")
                    .satisfies(e -> assertNowhere(e, SECRET, "p@ss", "p%40ss"));
        }
    }

    @Test
    void aPasswordTheServerRefusesIsNotShown() {
        URI shared = URI.create(SharedRedis.uri());
        String uri = "redis://nobody:p%40ss" + SECRET + "@" + shared.getHost() + ":" + shared.getPort();
        try (var provider = RedisStorage.builder(
                        RedisStorageConfig.custom().uri(uri).build())
                .build()) {
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(dev.agentpersistence.StorageAuthenticationException.class)
                    .satisfies(e -> assertNowhere(e, SECRET, "p@ss", "p%40ss"));
        }
    }

    @Test
    void anApplicationClientsEndpointIsShownRedacted() {
        assertThatThrownBy(() -> RedisStorageConfig.custom()
                        .uri("redis://:abc@def" + SECRET + "@127.0.0.1:1?apiToken=" + SECRET))
                .as("a malformed endpoint is refused without showing its password")
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        var client = redis.clients.jedis.RedisClient.create(URI.create("redis://127.0.0.1:1"));
        try (var provider = RedisStorage.builder(
                        RedisStorageConfig.custom()
                                .uri("redis://abc:" + SECRET + "@127.0.0.1:1")
                                .build(),
                        client)
                .build()) {
            assertThat(provider.toString()).doesNotContain(SECRET).contains("abc:****@127.0.0.1:1");
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        } finally {
            client.close();
        }
    }
}
