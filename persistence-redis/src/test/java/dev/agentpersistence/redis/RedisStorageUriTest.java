package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import org.junit.jupiter.api.Test;

/** {@code redis://} and {@code rediss://} name this provider, declared by its factory. */
class RedisStorageUriTest {
    @Test
    void aRedisUriSelectsTheRedisProviderAndItsDescriptionHidesThePassword() {
        var redis = StorageUri.parse("redis://:pw@cache:6380/2", ProviderConfig.empty());
        assertThat(redis.provider()).isEqualTo("redis");
        assertThat(redis.config().get("agent.persistence.redis.uri")).contains("redis://:pw@cache:6380/2");
        assertThat(redis.description()).doesNotContain("pw");
        assertThat(StorageUri.parse("rediss://cache:6380", ProviderConfig.empty())
                        .provider())
                .isEqualTo("redis");
    }
}
