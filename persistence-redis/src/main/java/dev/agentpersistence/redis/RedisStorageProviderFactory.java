package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;
import java.util.Objects;

/**
 * Discovers the Redis provider under the name {@value #NAME}, configured by the {@code agent.persistence.redis.*} keys
 * described in {@link RedisStorageConfig}, and the checksum, encryption and size keys of {@link StorageSettings}.
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
        Objects.requireNonNull(config, "config");
        return RedisStorageProvider.builder()
                .config(RedisStorageConfig.of(config))
                .settings(StorageSettings.from(config))
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return RedisStorageConfig.SETTINGS;
    }
}
