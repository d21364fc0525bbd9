package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;

/**
 * The conformance kit through the incremental history layer against the shared standalone Redis,
 * under a key prefix per test; the run's keys are removed afterwards.
 */
class RedisIncrementalHistoryTest extends RedisStorageProviderTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return redisProvider().withIncrementalHistory();
    }
}
