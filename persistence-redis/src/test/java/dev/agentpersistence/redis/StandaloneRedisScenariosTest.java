package dev.agentpersistence.redis;

import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

    @Override
    RedisStorageProvider createProvider() {
        return RedisStorageProvider.create(RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build());
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
