package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The provider is found through ServiceLoader under the name {@code redis} and works as configured. */
class RedisDiscoveryTest {

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Test
    void loadsByNameAndAsTheOnlyProviderOnTheClassPath() {
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.redis.uri", SharedRedis.uri(),
                "agent.persistence.redis.key-prefix", SharedRedis.uniquePrefix()));
        assertThat(PersistenceStorageProviders.available())
                .anySatisfy(factory -> assertThat(factory).isInstanceOf(RedisStorageProviderFactory.class));
        try (var byName = PersistenceStorageProviders.load("redis", config);
             var only = PersistenceStorageProviders.load(config)) {
            assertThat(byName).isInstanceOf(RedisStorageProvider.class);
            assertThat(only).isInstanceOf(RedisStorageProvider.class);
            byName.saveCheckpoint("discovered", Fixtures.simple("discovered", 0));
            assertThat(only.getCheckpoints("discovered")).containsExactly(Fixtures.simple("discovered", 0));
        }
    }
}
