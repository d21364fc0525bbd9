package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import org.junit.jupiter.api.AfterAll;

/**
 * The conformance kit against the shared standalone Redis. Each test writes under its own key prefix (so each test gets
 * fresh storage while its providers share it); the run's keys are removed afterwards.
 */
class RedisStorageProviderTest extends StorageProviderCompatibilityKit {
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
        return redisProvider();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return redisProvider(settings);
    }

    @Override
    protected dev.agentpersistence.tck.AbsentStore absentStore() {
        org.junit.jupiter.api.Assumptions.abort("a Redis key prefix without keys is an empty store, not a missing one:"
                + " Redis has nothing to create (a read-only provider writes no key)");
        throw new AssertionError("unreachable");
    }

    @Override
    protected byte[] dumpStorage() {
        return SharedRedis.dump(SharedRedis.uri(), prefix);
    }

    /** A provider under this test's key prefix. */
    final StorageShell redisProvider() {
        return redisProvider(StorageSettings.ofDefaults());
    }

    /** A provider under this test's key prefix writing with {@code settings}. */
    final StorageShell redisProvider(StorageSettings settings) {
        if (uri == null) {
            uri = SharedRedis.uri();
        }
        return RedisStorage.builder(
                        RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build())
                .settings(settings)
                .build();
    }
}
