package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.util.List;
import java.util.Optional;

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

    /** {@code redis://host:port[/db]} or {@code rediss://…}, the value of {@link RedisStorageConfig#URI_SETTING}. */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        if (!StorageUri.hasScheme(uri, "redis://") && !StorageUri.hasScheme(uri, "rediss://")) {
            return Optional.empty();
        }
        return Optional.of(StorageUri.select(
                NAME, base.with(RedisStorageConfig.URI_SETTING.key(), uri), ProviderConfig.redact(uri)));
    }

    @Override
    public List<String> uriForms() {
        return List.of("redis://host:port");
    }
}
