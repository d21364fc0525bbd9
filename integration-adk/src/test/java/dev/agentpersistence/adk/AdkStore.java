package dev.agentpersistence.adk;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.redis.RedisStorage;
import dev.agentpersistence.redis.RedisStorageConfig;
import dev.agentpersistence.tck.TestServices;
import java.nio.file.Path;

/**
 * The providers the services' contracts run on: the heap, files, SQLite (a file per test), the local PostgreSQL (or
 * {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}; app names are unique per test) and the local Redis (or
 * {@code AGENT_PERSISTENCE_TEST_REDIS_URI}) under a key prefix per test.
 */
enum AdkStore {
    IN_MEMORY {
        @Override
        PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix) {
            return InMemoryStorage.builder().build();
        }

        @Override
        boolean reopenable() {
            return false;
        }
    },
    FILE {
        @Override
        PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix) {
            return FileStorage.builder(dir.resolve("checkpoints")).build();
        }
    },
    SQLITE {
        @Override
        PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix) {
            String url = "jdbc:sqlite:" + dir.resolve("adk.db");
            return JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build())
                    .build();
        }
    },
    POSTGRES {
        @Override
        PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix) {
            String url = TestServices.postgresUrl(null);
            return JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build())
                    .build();
        }
    },
    REDIS {
        @Override
        PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix) {
            var config = RedisStorageConfig.custom()
                    .uri(TestServices.redisUri(null))
                    .keyPrefix(prefix)
                    .build();
            return RedisStorage.builder(config).build();
        }
    };

    /** A provider on the test's store in {@code dir} (or under {@code prefix}); each call reaches the same data. */
    abstract PersistenceStorageProvider<CheckpointFilter> open(Path dir, String prefix);

    /** Whether a second {@link #open} sees the first one's data (not in the heap, where each is a new store). */
    boolean reopenable() {
        return true;
    }
}
