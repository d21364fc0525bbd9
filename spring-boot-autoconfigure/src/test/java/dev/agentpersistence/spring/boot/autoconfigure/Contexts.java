package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.Message;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import java.util.List;
import java.util.Set;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Context runners over the auto-configuration, and the one save the tests make. */
final class Contexts {
    private Contexts() {}

    /** The auto-configuration with every provider module of the test class path. */
    static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AgentPersistenceAutoConfiguration.class, AgentPersistenceActuatorAutoConfiguration.class));
    }

    /** As {@link #runner()}, with only the provider modules named (none: no provider module at all). */
    static ApplicationContextRunner runnerWithOnly(String... providers) {
        Set<String> kept = Set.of(providers);
        Class<?>[] hidden = PersistenceStorageProviders.available().stream()
                .filter(f -> !kept.contains(f.name()))
                .map(PersistenceStorageProviderFactory::getClass)
                .toArray(Class<?>[]::new);
        return runner().withClassLoader(new FilteredClassLoader(hidden));
    }

    /** Saves a checkpoint of {@code agentId} through the facade and returns it. */
    static AgentCheckpoint saveOne(AgentPersistence persistence, String agentId) {
        var agent = new SimpleAgentContext(agentId).append(Message.user("plan the report"));
        return persistence.createCheckpoint(agent, "plan", null, null);
    }

    /** The provider names the tests expect on their class path. */
    static List<String> available() {
        return PersistenceStorageProviders.available().stream()
                .map(PersistenceStorageProviderFactory::name)
                .toList();
    }
}
