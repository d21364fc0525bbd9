package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.s3.S3StorageProvider;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 provider over the application's {@link S3Client}, which the application keeps owning; the
 * {@code agent.persistence.s3.*} settings (bucket, prefix, …) and the shared ones apply.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({S3StorageProvider.class, S3Client.class})
@ConditionalOnChosenProvider("s3")
@ConditionalOnSingleCandidate(S3Client.class)
class S3ProviderConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(PersistenceStorageProvider.class)
    PersistenceStorageProvider<CheckpointFilter> agentPersistenceStorageProvider(
            S3Client client, ProviderConfig config) {
        return S3StorageProvider.builder(S3StorageConfig.of(config))
                .client(client)
                .settings(StorageSettings.from(config))
                .build();
    }
}
