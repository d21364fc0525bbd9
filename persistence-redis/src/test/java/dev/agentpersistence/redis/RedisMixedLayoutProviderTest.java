package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.AbsentStore;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;

/**
 * The conformance kit, read matrix included, over agents whose odd versions the first layout's save wrote
 * ({@link MixedLayoutBackend}): today's reads, conflict checks and deletions over both layouts at once.
 */
class RedisMixedLayoutProviderTest extends StorageProviderCompatibilityKit {
    private final String prefix = SharedRedis.uniquePrefix();

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(StorageSettings.ofDefaults());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return MixedLayoutBackend.provider(SharedRedis.uri(), prefix, version -> version % 2 == 1)
                .settings(settings)
                .build();
    }

    @Override
    protected AbsentStore absentStore() {
        Assumptions.abort("a Redis key prefix without keys is an empty store, not a missing one");
        throw new AssertionError("unreachable");
    }

    @Override
    protected byte[] dumpStorage() {
        return SharedRedis.dump(SharedRedis.uri(), prefix);
    }
}
