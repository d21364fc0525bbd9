package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.redis.RedisStorageConfig;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class EnvironmentProviderConfigTest {
    private static final ClassLoader LOADER = EnvironmentProviderConfigTest.class.getClassLoader();

    @Test
    void declaredKeysAreReadWithRelaxedNames() {
        var environment = environment(Map.of(
                "agent.persistence.provider", "jdbc",
                "agent.persistence.jdbc.tablePrefix", "camel_",
                "agent.persistence.redis.cluster-nodes[0]", "a:7000",
                "agent.persistence.redis.cluster-nodes[1]", "b:7001",
                "agent.persistence.history.incremental", "false"));
        ProviderConfig config = EnvironmentProviderConfig.from(environment, LOADER);
        assertThat(config.get(ProviderConfig.PROVIDER)).contains("jdbc");
        assertThat(JdbcStorageConfig.TABLE_PREFIX.read(config)).isEqualTo("camel_");
        assertThat(config.get("agent.persistence.redis.cluster-nodes")).contains("a:7000,b:7001");
        assertThat(StorageSettings.from(config).incrementalHistory()).isFalse();
    }

    @Test
    void environmentVariablesAnswerInSpringsFormAndInTheLibrarysForm() {
        var environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of(
                                        "AGENT_PERSISTENCE_JDBC_TABLEPREFIX", "spring_",
                                        "AGENT_PERSISTENCE_JDBC_POOL_SIZE", "3",
                                        "AGENT_PERSISTENCE_REDIS_KEY_PREFIX", "app:")));
        ProviderConfig config = EnvironmentProviderConfig.from(environment, LOADER);
        assertThat(JdbcStorageConfig.TABLE_PREFIX.read(config)).isEqualTo("spring_");
        assertThat(JdbcStorageConfig.POOL_SIZE.read(config)).isEqualTo(3);
        assertThat(RedisStorageConfig.KEY_PREFIX.read(config)).isEqualTo("app:");
    }

    @Test
    void undeclaredKeysAreNotRead() {
        var config =
                EnvironmentProviderConfig.from(environment(Map.of("agent.persistence.jdbc.no-such-key", "x")), LOADER);
        assertThat(config).isEqualTo(ProviderConfig.empty());
    }

    @Test
    void theHealthTimeoutDefaultsToTwoSeconds() {
        assertThat(StarterSettings.HEALTH_TIMEOUT.read(ProviderConfig.empty())).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theProviderKeyHasConfigurationMetadata() throws Exception {
        String metadata = java.nio.file.Files.readString(
                Path.of("src/main/resources/META-INF/spring-configuration-metadata.json"));
        assertThat(metadata).contains("\"name\" : \"agent.persistence.provider\"");
        assertThat(StarterSettings.SETTINGS).contains(StarterSettings.PROVIDER);
        assertThat(EnvironmentProviderConfig.from(
                                environment(Map.of("agent.persistence.provider", "inmemory")),
                                getClass().getClassLoader())
                        .get(ProviderConfig.PROVIDER))
                .contains("inmemory");
    }

    @Test
    void configurationMetadataMatchesTheDeclarations() throws Exception {
        var file = Path.of("src/main/resources/META-INF/spring-configuration-metadata.json");
        String expected =
                dev.agentpersistence.settings.SettingsMetadata.springConfigurationMetadata(StarterSettings.SETTINGS);
        if (Boolean.getBoolean("settings-tables.update")) {
            java.nio.file.Files.writeString(file, expected);
        }
        assertThat(file).as("regenerate with -Dsettings-tables.update=true").hasContent(expected);
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        var environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
