package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.redis.RedisStorage;
import dev.agentpersistence.redis.RedisStorageConfig;
import dev.agentpersistence.tck.TestServices;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;

/** Against the local Redis (or {@code AGENT_PERSISTENCE_TEST_REDIS_URI}) under a key prefix of its own. */
class RedisSaverTest extends SaverContractTest {
    private static String uri;
    private final String prefix = "lg4j-test-" + UUID.randomUUID() + ":";

    @BeforeAll
    static void locate() {
        uri = TestServices.redisUri(null);
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return RedisStorage.builder(
                        RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build())
                .build();
    }
}
