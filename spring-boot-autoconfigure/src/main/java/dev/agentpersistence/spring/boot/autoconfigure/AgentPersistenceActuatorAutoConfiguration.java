package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.ProviderConfig;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code agentPersistence} health indicator and info contributor, each when its part of Spring Boot is on the class
 * path (actuator is optional).
 */
@AutoConfiguration(after = AgentPersistenceAutoConfiguration.class)
@ConditionalOnBean(PersistenceStorageProvider.class)
public class AgentPersistenceActuatorAutoConfiguration {

    /** The health indicator, {@code management.health.agentpersistence.enabled} switching it off. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("agentpersistence")
    static class HealthConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "agentPersistenceHealthIndicator")
        AgentPersistenceHealthIndicator agentPersistenceHealthIndicator(
                PersistenceStorageProvider<?> provider, ProviderConfig config) {
            return new AgentPersistenceHealthIndicator(provider, StarterSettings.HEALTH_TIMEOUT.read(config));
        }
    }

    /** The info contributor. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(InfoContributor.class)
    static class InfoConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "agentPersistenceInfoContributor")
        AgentPersistenceInfoContributor agentPersistenceInfoContributor(PersistenceStorageProvider<?> provider) {
            return new AgentPersistenceInfoContributor(provider);
        }
    }
}
