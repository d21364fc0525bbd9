package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.observation.AgentMeterHandler;
import dev.agentpersistence.spi.ProviderConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configuration of agent-persistence. Every bean backs off when the application defines its own:
 *
 * <ul>
 *   <li>{@link ProviderConfig}: the {@code agent.persistence.*} properties ({@link EnvironmentProviderConfig});
 *   <li>the {@link PersistenceStorageProvider}, chosen by the discovery rules, built over the application's
 *       {@code DataSource}, {@code UnifiedJedis} or {@code S3Client} when the chosen provider can use it, observed into
 *       the application's {@link ObservationRegistry}, closed with the context;
 *   <li>the {@link RollbackToolRegistry} of every {@link RollbackToolPair} bean;
 *   <li>{@link AgentPersistence} over them, observed into the application's {@link ObservationRegistry};
 *   <li>an {@link AgentMeterHandler} when there is a {@link MeterRegistry}, ahead of Micrometer's default meter
 *       handler, so the observations give the documented meters (names and tags of
 *       {@link dev.agentpersistence.metrics.StorageMetricNames});
 *   <li>a {@link dev.agentpersistence.history.RetentionSweeper} run every {@code agent.persistence.retention.interval}
 *       when {@code .keep-latest} or {@code .max-age} is set ({@link ScheduledRetention}).
 * </ul>
 *
 * The actuator health indicator and info contributor are in {@link AgentPersistenceActuatorAutoConfiguration}.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
        })
@Import({
    JdbcProviderConfiguration.class,
    RedisProviderConfiguration.class,
    S3ProviderConfiguration.class,
    DiscoveredProviderConfiguration.class,
    RetentionConfiguration.class
})
public class AgentPersistenceAutoConfiguration {

    /**
     * The settings every provider bean is built from. Which configuration builds the provider (over a
     * {@code DataSource}, a client, or by discovery) is decided from the {@code Environment} itself, so a replacement
     * of this bean changes the settings, not that choice. It carries the application's {@link ObservationRegistry}, so
     * the provider observes its own operations.
     */
    @Bean
    @ConditionalOnMissingBean
    public ProviderConfig agentPersistenceProviderConfig(
            Environment environment, ResourceLoader resourceLoader, ObjectProvider<ObservationRegistry> observations) {
        ProviderConfig config = EnvironmentProviderConfig.from(environment, resourceLoader.getClassLoader());
        ObservationRegistry registry = observations.getIfUnique();
        return registry == null ? config : config.withObservations(registry);
    }

    /** The inverses of the tools declared as {@link RollbackToolPair} beans, in bean order. */
    @Bean
    @ConditionalOnMissingBean
    public RollbackToolRegistry rollbackToolRegistry(ObjectProvider<RollbackToolPair> pairs) {
        var registry = RollbackToolRegistry.builder();
        pairs.orderedStream().forEach(pair -> registry.registerRollback(pair.toolName(), pair.inverse()));
        return registry.build();
    }

    /** The facade agents and framework integrations call. */
    @Bean
    @ConditionalOnMissingBean
    public AgentPersistence agentPersistence(
            PersistenceStorageProvider<?> storage,
            RollbackToolRegistry rollbackTools,
            ObjectProvider<ObservationRegistry> observations) {
        var builder = AgentPersistence.builder().storage(storage).rollbackTools(rollbackTools);
        observations.ifUnique(builder::observationRegistry);
        return builder.build();
    }

    /** The meters of agent-persistence's observations, when the application has a meter registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class Meters {
        @Bean
        @ConditionalOnMissingBean
        @Order(Ordered.HIGHEST_PRECEDENCE)
        AgentMeterHandler agentPersistenceMeterHandler(MeterRegistry meterRegistry) {
            return new AgentMeterHandler(meterRegistry);
        }
    }
}
