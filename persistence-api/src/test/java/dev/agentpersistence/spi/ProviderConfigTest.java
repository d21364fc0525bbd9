package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProviderConfigTest {

    @Test
    void environmentNamesMatchDottedKeys() {
        var config = ProviderConfig.fromEnvironment(
                Map.of(
                        "AGENT_PERSISTENCE_JDBC_URL", "jdbc:sqlite:x.db",
                        "AGENT_PERSISTENCE_JDBC_POOL_SIZE", "7",
                        "PATH", "/usr/bin",
                        "agent_persistence_lower", "ignored: env prefix is upper case"),
                new Properties());

        assertThat(config.get("agent.persistence.jdbc.url")).contains("jdbc:sqlite:x.db");
        assertThat(config.get("agent.persistence.jdbc.pool-size")).contains("7");
        assertThat(config.get("AGENT_PERSISTENCE_JDBC_URL")).contains("jdbc:sqlite:x.db");
        assertThat(config.get("agent.persistence.lower")).isEmpty();
        assertThat(config.get("path")).isEmpty();
    }

    @Test
    void systemPropertiesWinOverEnvironmentVariables() {
        var properties = new Properties();
        properties.setProperty("agent.persistence.file.dir", "/from/property");
        properties.setProperty("other.setting", "ignored");
        var config = ProviderConfig.fromEnvironment(Map.of("AGENT_PERSISTENCE_FILE_DIR", "/from/env"), properties);

        assertThat(config.get("agent.persistence.file.dir")).contains("/from/property");
        assertThat(config.get("other.setting")).isEmpty();
    }

    @Test
    void keysMatchLooselyAndLaterKeysWin() {
        var settings = new LinkedHashMap<String, String>();
        settings.put("agent.persistence.redis.key-prefix", "first");
        settings.put("AGENT_PERSISTENCE_REDIS_KEY_PREFIX", "second");
        var config = ProviderConfig.of(settings);
        assertThat(config.get("agent.persistence.redis.key_prefix")).contains("second");
        assertThat(config).isEqualTo(ProviderConfig.of(Map.of("Agent.Persistence.Redis.Key.Prefix", "second")));
        assertThat(config.hashCode())
                .isEqualTo(ProviderConfig.of(Map.of("agent.persistence.redis.key.prefix", "second"))
                        .hashCode());
    }

    @Test
    void valuesDefaultsAndCopies() {
        var config = ProviderConfig.empty().with("agent.persistence.provider", "jdbc");
        assertThat(config.get(ProviderConfig.PROVIDER)).contains("jdbc");
        assertThat(config.get("agent.persistence.missing", "fallback")).isEqualTo("fallback");
        assertThat(ProviderConfig.empty().get(ProviderConfig.PROVIDER)).isEmpty();
    }

    @Test
    void environmentNameOfAKey() {
        assertThat(ProviderConfig.environmentName("agent.persistence.jdbc.pool-size"))
                .isEqualTo("AGENT_PERSISTENCE_JDBC_POOL_SIZE");
    }

    @Test
    void redactHidesUriPasswords() {
        assertThat(ProviderConfig.redact("postgresql://app:s3cret@db.example:5432/test"))
                .isEqualTo("postgresql://app:****@db.example:5432/test");
        assertThat(ProviderConfig.redact("redis://:p%40ss@localhost:6379/0"))
                .isEqualTo("redis://:****@localhost:6379/0");
        assertThat(ProviderConfig.redact("redis://localhost:6379")).isEqualTo("redis://localhost:6379");
        assertThat(ProviderConfig.redact("redis://user@localhost:6379")).isEqualTo("redis://user@localhost:6379");
        assertThat(ProviderConfig.redact("a rediss://u:x@h1 and s3://k:y@h2"))
                .isEqualTo("a rediss://u:****@h1 and s3://k:****@h2");
        assertThat(ProviderConfig.redact("jdbc:postgresql://db/test?user=app&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/test?user=app&password=****&ssl=true");
        assertThat(ProviderConfig.redact("jdbc:sqlserver://db;user=app;PWD=s3cret"))
                .isEqualTo("jdbc:sqlserver://db;user=app;PWD=****");
        assertThat(ProviderConfig.redact(null)).isNull();
    }

    @Test
    void toStringHidesPasswordsAndSecrets() {
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.jdbc.password", "hunter2",
                "agent.persistence.s3.secret-access-key", "AWSSECRET",
                "agent.persistence.s3.access-key-id", "AKIAID",
                "agent.persistence.redis.token", "tok",
                "agent.persistence.redis.uri", "redis://u:pw@h:6379",
                "agent.persistence.jdbc.url", "jdbc:sqlite:agent.db"));
        String text = config.toString();

        assertThat(text).doesNotContain("hunter2", "AWSSECRET", "AKIAID", "tok,", "pw@");
        assertThat(text)
                .contains("agent.persistence.jdbc.password=****")
                .contains("agent.persistence.redis.uri=redis://u:****@h:6379")
                .contains("agent.persistence.jdbc.url=jdbc:sqlite:agent.db");
    }
}
