package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The conformance kit against a real three-master Redis Cluster started by the tests; a key prefix per test. */
@ExtendWith(RedisClusterExtension.class)
class RedisClusterStorageProviderTest extends StorageProviderCompatibilityKit {
    private static RedisTestCluster cluster;

    private final String prefix = "agent-persistence-test:"
            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";

    @BeforeAll
    static void useCluster(RedisTestCluster started) {
        cluster = started;
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return RedisStorage.builder(RedisStorageConfig.custom()
                        .clusterNodes(cluster.nodes())
                        .keyPrefix(prefix)
                        .build())
                .build();
    }
}
