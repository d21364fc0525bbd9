package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.s3.S3Storage;
import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
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
@ConditionalOnClass({StorageShell.class, S3Client.class})
@ConditionalOnChosenProvider("s3")
@ConditionalOnSingleCandidate(S3Client.class)
class S3ProviderConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(PersistenceStorageProvider.class)
    PersistenceStorageProvider<CheckpointFilter> agentPersistenceStorageProvider(
            S3Client client, ProviderConfig config) {
        return S3Storage.builder(S3StorageConfig.from(config), client)
                .config(config)
                .build();
    }
}
