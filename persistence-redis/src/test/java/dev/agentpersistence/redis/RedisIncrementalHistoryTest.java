package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import org.junit.jupiter.api.AfterAll;

/**
 * The conformance kit through the incremental history layer against the shared standalone Redis,
 * under a key prefix per test; the run's keys are removed afterwards.
 */
class RedisIncrementalHistoryTest extends StorageProviderCompatibilityKit {
    private final String prefix = SharedRedis.uniquePrefix();
    private String uri;

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        if (uri == null) {
            uri = SharedRedis.uri();
        }
        return RedisStorageProvider.create(RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build())
                .withIncrementalHistory();
    }
}
