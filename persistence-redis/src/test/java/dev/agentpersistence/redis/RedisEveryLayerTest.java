package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.KitSettings;

/**
 * The conformance kit writing with every layer (checksum, compression, encryption, incremental history) against the
 * shared standalone Redis, under a key prefix per test; the run's keys are removed afterwards.
 */
class RedisEveryLayerTest extends RedisStorageProviderTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return redisProvider(KitSettings.everyLayer());
    }
}
