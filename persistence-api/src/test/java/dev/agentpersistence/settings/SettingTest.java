package dev.agentpersistence.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SettingTest {
    private static final Setting<Integer> LEVEL = Setting.integer("agent.persistence.test.level", 1, 1, 9, "Level.");
    private static final Setting<Long> SIZE = Setting.size("agent.persistence.test.size", 64L << 20, 1, "Size.");
    private static final Setting<Duration> TTL = Setting.duration("agent.persistence.test.ttl", null, "TTL.");
    private static final Setting<String> PASSWORD =
            Setting.text("agent.persistence.test.password", null, "Password.").secret();
    private static final Setting<String> MODE =
            Setting.choice("agent.persistence.test.mode", "deflate", List.of("deflate", "none"), "Mode.");

    @Test
    void readsFromSystemPropertyAndEnvironmentForms() {
        assertThat(LEVEL.read(ProviderConfig.of(Map.of("agent.persistence.test.level", " 7 "))))
                .isEqualTo(7);
        assertThat(LEVEL.read(ProviderConfig.of(Map.of("AGENT_PERSISTENCE_TEST_LEVEL", "3"))))
                .isEqualTo(3);
        assertThat(LEVEL.read(ProviderConfig.empty())).isEqualTo(1);
        assertThat(SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "16MiB"))))
                .isEqualTo(16L << 20);
        assertThat(SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "10MB"))))
                .isEqualTo(10_000_000L);
        assertThat(TTL.find(ProviderConfig.of(Map.of("agent.persistence.test.ttl", "7d"))))
                .contains(Duration.ofDays(7));
        assertThat(TTL.find(ProviderConfig.empty())).isEmpty();
        assertThat(MODE.read(ProviderConfig.of(Map.of("agent.persistence.test.mode", "NONE"))))
                .isEqualTo("none");
    }

    @Test
    void malformedValuesNameKeyEnvironmentAndExpectation() {
        assertThatThrownBy(() -> LEVEL.read(ProviderConfig.of(Map.of("agent.persistence.test.level", "10"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.test.level")
                .hasMessageContaining("AGENT_PERSISTENCE_TEST_LEVEL")
                .hasMessageContaining("from 1 to 9")
                .hasMessageContaining("'10'");
        assertThatThrownBy(() -> SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "lots"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("16MiB");
        assertThatThrownBy(() -> TTL.read(ProviderConfig.empty()))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("Missing required setting");
        assertThatThrownBy(() -> LEVEL.check(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("agent.persistence.test.level must be an integer from 1 to 9 but was '0'");
    }

    @Test
    void secretsAreNeverShown() {
        var secret = Setting.choice("agent.persistence.test.key", "a", List.of("a", "b"), "Key.")
                .secret();
        assertThatThrownBy(() -> secret.read(ProviderConfig.of(Map.of("agent.persistence.test.key", "hunter2"))))
                .hasMessageNotContaining("hunter2")
                .hasMessageContaining("not shown");
        assertThat(PASSWORD.show("hunter2")).isEqualTo("****");
        assertThat(SettingsTable.markdown(List.of(PASSWORD)))
                .doesNotContain("hunter2")
                .contains("secret");
    }

    @Test
    void defaultsAreCheckedAndDocumented() {
        assertThatThrownBy(() -> Setting.integer("agent.persistence.test.bad", 0, 1, 9, "Bad."))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Setting.bool("other.key", true, "Outside."))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SettingsTable.markdown(List.of(SIZE, MODE)))
                .isEqualTo("| key | environment | type | default | description |\n|---|---|---|---|---|\n"
                        + "| `agent.persistence.test.size` | `AGENT_PERSISTENCE_TEST_SIZE` | size | `64MiB` "
                        + "| Size. |\n"
                        + "| `agent.persistence.test.mode` | `AGENT_PERSISTENCE_TEST_MODE` | deflate\\|none "
                        + "| `deflate` | Mode. |\n");
    }

    @Test
    void numbersAndBooleansAreParsedStrictly() {
        var number = Setting.integer("agent.persistence.n", 0, 0, 100, "A number.");
        var flag = Setting.bool("agent.persistence.b", false, "A flag.");
        var config = ProviderConfig.of(Map.of("agent.persistence.n", " 12 ", "agent.persistence.b", "TRUE"));
        assertThat(number.read(config)).isEqualTo(12);
        assertThat(flag.read(config)).isTrue();
        assertThatThrownBy(() -> number.read(config.with("agent.persistence.n", "twelve")))
                .isInstanceOf(PersistenceException.class)
                .hasMessage("Setting 'agent.persistence.n' (environment AGENT_PERSISTENCE_N) must be an integer from 0"
                        + " to 100 but was 'twelve'");
        assertThatThrownBy(() -> number.read(config.with("agent.persistence.n", "9000000000")))
                .isInstanceOf(PersistenceException.class);
        assertThatThrownBy(() -> flag.read(config.with("agent.persistence.b", "yes")))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("true or false");
    }

    @ParameterizedTest
    @CsvSource({
        "500ms,PT0.5S",
        "30s,PT30S",
        "30,PT30S",
        "5m,PT5M",
        "2h,PT2H",
        "7d,PT168H",
        "PT1M30S,PT1M30S",
        "' 10 s ',PT10S",
        "10S,PT10S"
    })
    void durationsInEveryForm(String text, String expected) {
        var timeout = Setting.duration("agent.persistence.timeout", null, "A timeout.");
        assertThat(timeout.find(ProviderConfig.of(Map.of("agent.persistence.timeout", text))))
                .contains(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "5x", "ms", "P", "-5s"})
    void invalidDurationsNameTheKey(String text) {
        var timeout = Setting.duration("agent.persistence.timeout", null, "A timeout.");
        assertThatThrownBy(() -> timeout.find(ProviderConfig.of(Map.of("agent.persistence.timeout", text))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.timeout")
                .hasMessageContaining("duration");
    }

    @Test
    void aMissingRequiredSettingSaysHowToSetIt() {
        var bucket = Setting.text("agent.persistence.s3.bucket", null, "The bucket.");
        assertThatThrownBy(() -> bucket.read(ProviderConfig.empty()))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.bucket")
                .hasMessageContaining("AGENT_PERSISTENCE_S3_BUCKET");
        assertThatThrownBy(() -> bucket.read(ProviderConfig.of(Map.of("agent.persistence.s3.bucket", "  "))))
                .isInstanceOf(PersistenceException.class);
    }

    @Test
    void valuesAreCheckedAndShownWithoutSecrets() {
        var uri = Setting.text("agent.persistence.x.uri", "redis://localhost", "A URI.")
                .redacted()
                .checkedBy(v -> v.startsWith("redis") ? null : "a redis URI");
        var password = Setting.text("agent.persistence.x.password", null, "A password.")
                .secret();
        var values = SettingValues.defaults(List.of(uri, password));
        assertThat(values.get(uri)).isEqualTo("redis://localhost");
        assertThat(values.find(password)).isEmpty();
        values = values.with(uri, "redis://user:hunter2@host").with(password, "hunter3");
        assertThat(values.toString())
                .contains("redis://user:****@host")
                .contains("agent.persistence.x.password=****")
                .doesNotContain("hunter");
        assertThatThrownBy(() -> SettingValues.defaults(List.of(uri)).with(uri, "http://user:hunter2@host"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a redis URI")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> SettingValues.defaults(List.of(uri)).with(password, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not one of these settings");
        assertThat(values.without(uri).get(uri)).isEqualTo("redis://localhost");
    }
}
