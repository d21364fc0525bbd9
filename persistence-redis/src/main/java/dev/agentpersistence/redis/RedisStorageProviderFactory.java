package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;

/**
 * Discovers the Redis provider under the name {@value #NAME}: {@link RedisStorage#builder(RedisStorageConfig)} over the
 * {@code agent.persistence.redis.*} keys of {@link RedisStorageConfig}, with the keys every provider shares.
 */
public final class RedisStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The name that selects this provider. */
    public static final String NAME = "redis";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return RedisStorage.builder(RedisStorageConfig.from(config))
                .config(config)
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return RedisStorageConfig.SETTINGS;
    }
}
