package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

/**
 * The provider as {@link PersistenceStorageProviders#load(ProviderConfig, ClassLoader)} chooses and creates it, when
 * neither the application nor a client-reusing configuration supplied one.
 */
@Configuration(proxyBeanMethods = false)
class DiscoveredProviderConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(PersistenceStorageProvider.class)
    PersistenceStorageProvider<CheckpointFilter> agentPersistenceStorageProvider(
            ProviderConfig config, ResourceLoader resourceLoader) {
        return PersistenceStorageProviders.load(config, resourceLoader.getClassLoader());
    }
}
