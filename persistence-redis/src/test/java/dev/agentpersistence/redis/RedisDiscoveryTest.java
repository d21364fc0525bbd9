package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The provider is found through ServiceLoader under the name {@code redis} and works as configured. */
class RedisDiscoveryTest extends DiscoveryKit {

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Override
    protected String providerName() {
        return "redis";
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(
                "agent.persistence.redis.uri", SharedRedis.uri(),
                "agent.persistence.redis.key-prefix", SharedRedis.uniquePrefix()));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }

    @Test
    void isChosenWhenItIsTheOnlyProviderOnTheClassPath() {
        try (var only = PersistenceStorageProviders.load(config())) {
            assertThat(only)
                    .isInstanceOfSatisfying(
                            StorageShell.class,
                            redis -> assertThat(redis.storedForm()
                                            .orElseThrow()
                                            .writes()
                                            .incrementalHistory())
                                    .isTrue());
        }
    }
}
