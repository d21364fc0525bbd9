package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.storage.StorageShell;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/** {@link RedisProviderScenarios} against the shared standalone Redis, under a key prefix unique to each test. */
class StandaloneRedisScenariosTest extends RedisProviderScenarios {
    private String uri;
    private String prefix;
    private UnifiedJedis raw;

    @BeforeEach
    void locate() {
        uri = SharedRedis.uri();
        prefix = SharedRedis.uniquePrefix();
        raw = RedisClient.create(URI.create(uri));
    }

    @AfterEach
    void closeRaw() {
        if (raw != null) {
            raw.close();
        }
    }

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Test
    void anApplicationSuppliedClientIsUsedAndLeftOpen() {
        String agent = agent("supplied");
        var provider = RedisStorage.builder(
                        RedisStorageConfig.custom()
                                .keyPrefix(prefix)
                                .uri("redis://app:hunter2@cache.internal:6379")
                                .build(),
                        raw)
                .build();
        assertThat(provider.toString())
                .contains("redis://app:****@cache.internal:6379")
                .doesNotContain("hunter2")
                .doesNotContain("cluster");
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
        provider.close();
        assertThat(raw.exists(keysOf(agent).versions())).isTrue();
        assertThat(provider().getCheckpoints(agent)).containsExactly(Fixtures.simple(agent, 0));
    }

    @Override
    StorageShell createProvider() {
        return RedisStorage.builder(
                        RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build())
                .build();
    }

    @Override
    UnifiedJedis raw() {
        return raw;
    }

    @Override
    String keyPrefix() {
        return prefix;
    }

    @Override
    void flushScripts() {
        try (var jedis = SharedRedis.connect(uri)) {
            jedis.scriptFlush();
        }
    }
}
