package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JDBC provider over the application's {@link DataSource}, so there is no second pool: the
 * {@code agent.persistence.jdbc.*} settings that apply to a given data source (table prefix, migration, busy timeout,
 * ttl) and the shared ones are read as discovery would; the URL, user and pool settings are the data source's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(StorageShell.class)
@ConditionalOnChosenProvider("jdbc")
@ConditionalOnSingleCandidate(DataSource.class)
class JdbcProviderConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(PersistenceStorageProvider.class)
    PersistenceStorageProvider<CheckpointFilter> agentPersistenceStorageProvider(
            DataSource dataSource, ProviderConfig config) {
        return JdbcStorage.builder(JdbcStorageConfig.from(config), dataSource)
                .config(config)
                .build();
    }
}
