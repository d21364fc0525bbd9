package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProviderConfigTest {

    @Test
    void environmentNamesMatchDottedKeys() {
        var config = ProviderConfig.fromEnvironment(Map.of(
                "AGENT_PERSISTENCE_JDBC_URL", "jdbc:sqlite:x.db",
                "AGENT_PERSISTENCE_JDBC_POOL_SIZE", "7",
                "PATH", "/usr/bin",
                "agent_persistence_lower", "ignored: env prefix is upper case"), new Properties());

        assertThat(config.get("agent.persistence.jdbc.url")).contains("jdbc:sqlite:x.db");
        assertThat(config.getInt("agent.persistence.jdbc.pool-size", 1)).isEqualTo(7);
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
                .isEqualTo(ProviderConfig.of(Map.of("agent.persistence.redis.key.prefix", "second")).hashCode());
    }

    @Test
    void valuesDefaultsAndCopies() {
        var config = ProviderConfig.empty().with("agent.persistence.provider", "jdbc");
        assertThat(config.get(ProviderConfig.PROVIDER)).contains("jdbc");
        assertThat(config.get("agent.persistence.missing", "fallback")).isEqualTo("fallback");
        assertThat(ProviderConfig.empty().get(ProviderConfig.PROVIDER)).isEmpty();
        assertThat(config.getInt("agent.persistence.n", 3)).isEqualTo(3);
        assertThat(config.getLong("agent.persistence.n", 4L)).isEqualTo(4L);
        assertThat(config.getBoolean("agent.persistence.b", true)).isTrue();
        assertThat(config.getDuration("agent.persistence.d")).isEmpty();
    }

    @Test
    void requireExplainsHowToSetAMissingKey() {
        assertThatThrownBy(() -> ProviderConfig.empty().require("agent.persistence.s3.bucket"))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.bucket")
                .hasMessageContaining("AGENT_PERSISTENCE_S3_BUCKET");
        assertThatThrownBy(() -> ProviderConfig.of(Map.of("agent.persistence.s3.bucket", "  ")).require("agent.persistence.s3.bucket"))
                .isInstanceOf(PersistenceException.class);
        assertThat(ProviderConfig.of(Map.of("agent.persistence.s3.bucket", "b")).require("agent.persistence.s3.bucket"))
                .isEqualTo("b");
    }

    @Test
    void numbersAndBooleansAreParsedStrictly() {
        var config = ProviderConfig.of(Map.of("a.int", " 12 ", "a.bad", "twelve", "a.bool", "TRUE", "a.badbool", "yes",
                "a.long", "9000000000"));
        assertThat(config.getInt("a.int", 0)).isEqualTo(12);
        assertThat(config.getLong("a.long", 0)).isEqualTo(9_000_000_000L);
        assertThat(config.getBoolean("a.bool", false)).isTrue();
        assertThatThrownBy(() -> config.getInt("a.bad", 0))
                .isInstanceOf(PersistenceException.class)
                .hasMessage("Setting 'a.bad' must be an integer but was 'twelve'");
        assertThatThrownBy(() -> config.getInt("a.long", 0)).isInstanceOf(PersistenceException.class);
        assertThatThrownBy(() -> config.getBoolean("a.badbool", false))
                .isInstanceOf(PersistenceException.class).hasMessageContaining("true or false");
    }

    @ParameterizedTest
    @CsvSource({"500ms,PT0.5S", "30s,PT30S", "30,PT30S", "5m,PT5M", "2h,PT2H", "7d,PT168H", "PT1M30S,PT1M30S",
            "' 10 s ',PT10S", "10S,PT10S"})
    void durationsInEveryForm(String text, String expected) {
        var config = ProviderConfig.of(Map.of("agent.persistence.timeout", text));
        assertThat(config.getDuration("agent.persistence.timeout")).contains(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "5x", "ms", "P", "-5s", ""})
    void invalidDurationsNameTheKey(String text) {
        var config = ProviderConfig.of(Map.of("agent.persistence.timeout", text));
        assertThatThrownBy(() -> config.getDuration("agent.persistence.timeout"))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.timeout")
                .hasMessageContaining("duration");
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
        assertThat(ProviderConfig.redact("redis://:p%40ss@localhost:6379/0")).isEqualTo("redis://:****@localhost:6379/0");
        assertThat(ProviderConfig.redact("redis://localhost:6379")).isEqualTo("redis://localhost:6379");
        assertThat(ProviderConfig.redact("redis://user@localhost:6379")).isEqualTo("redis://user@localhost:6379");
        assertThat(ProviderConfig.redact("a rediss://u:x@h1 and s3://k:y@h2"))
                .isEqualTo("a rediss://u:****@h1 and s3://k:****@h2");
        assertThat(ProviderConfig.redact("jdbc:postgresql://db/test?user=app&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/test?user=app&password=****&ssl=true");
        assertThat(ProviderConfig.redact("jdbc:sqlserver://db;user=app;PWD=s3cret")).isEqualTo("jdbc:sqlserver://db;user=app;PWD=****");
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
        assertThat(text).contains("agent.persistence.jdbc.password=****")
                .contains("agent.persistence.redis.uri=redis://u:****@h:6379")
                .contains("agent.persistence.jdbc.url=jdbc:sqlite:agent.db");
    }
}
