package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.redis.RedisStorage;
import dev.agentpersistence.redis.RedisStorageConfig;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis provider over the application's {@link UnifiedJedis} client, which the application keeps owning; the
 * {@code agent.persistence.redis.*} settings (key prefix, ttl) and the shared ones apply.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({StorageShell.class, UnifiedJedis.class})
@ConditionalOnChosenProvider("redis")
@ConditionalOnSingleCandidate(UnifiedJedis.class)
class RedisProviderConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(PersistenceStorageProvider.class)
    PersistenceStorageProvider<CheckpointFilter> agentPersistenceStorageProvider(
            UnifiedJedis client, ProviderConfig config) {
        return RedisStorage.builder(RedisStorageConfig.from(config), client)
                .config(config)
                .build();
    }
}
