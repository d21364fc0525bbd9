package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The scheduled retention sweep: a {@link RetentionSweeper} with the policy of
 * {@code agent.persistence.retention.keep-latest} and {@code .max-age}, run every {@code .interval}; only when one of
 * the two is set, or a time to live ({@code agent.persistence.ttl}), whose expired checkpoints each sweep deletes.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(RetentionConfiguration.PolicySet.class)
class RetentionConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RetentionSweeper agentPersistenceRetentionSweeper(PersistenceStorageProvider<?> storage, ProviderConfig config) {
        @SuppressWarnings("unchecked") // every provider of this project filters with CheckpointFilter
        var provider = (PersistenceStorageProvider<CheckpointFilter>) storage;
        return RetentionSweeper.builder(provider)
                .policy(RetentionPolicy.from(config))
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    ScheduledRetention agentPersistenceScheduledRetention(RetentionSweeper sweeper, ProviderConfig config) {
        return new ScheduledRetention(sweeper, StarterSettings.RETENTION_INTERVAL.read(config));
    }

    /** Whether keep-latest, max-age or a time to live is set, in any of the property forms the environment accepts. */
    static final class PolicySet implements org.springframework.context.annotation.Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ProviderConfig config = EnvironmentProviderConfig.from(context.getEnvironment(), context.getClassLoader());
            return StarterSettings.RETENTION_KEEP_LATEST.find(config).isPresent()
                    || StarterSettings.RETENTION_MAX_AGE.find(config).isPresent()
                    || StorageSettings.TTL.find(config).isPresent();
        }
    }
}
