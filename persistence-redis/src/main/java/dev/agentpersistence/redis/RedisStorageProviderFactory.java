package dev.agentpersistence.redis;

import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.spi.UriForm;

/**
 * Discovers the Redis provider under the name {@value #NAME}: {@link RedisStorage#builder(RedisStorageConfig)} over the
 * {@code agent.persistence.redis.*} keys of {@link RedisStorageConfig}, with the keys every provider shares. Opens
 * {@code redis://host:port[/db]} and {@code rediss://…}, the value of {@link RedisStorageConfig#URI_SETTING}.
 */
public final class RedisStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The name that selects this provider. */
    public static final String NAME = "redis";

    /** Used by {@link java.util.ServiceLoader}. */
    public RedisStorageProviderFactory() {
        super(
                NAME,
                RedisStorageConfig.SETTINGS,
                config -> RedisStorage.builder(RedisStorageConfig.from(config))
                        .config(config)
                        .build(),
                UriForm.setting("redis://host:port", RedisStorageConfig.URI_SETTING, "redis://", "rediss://"));
    }
}
