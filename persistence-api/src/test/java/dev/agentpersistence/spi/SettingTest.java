package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingTest {
    private static final Setting<Integer> LEVEL = Setting.integer("agent.persistence.test.level", 1, 1, 9, "Level.");
    private static final Setting<Long> SIZE = Setting.size("agent.persistence.test.size", 64L << 20, 1, "Size.");
    private static final Setting<Duration> TTL = Setting.duration("agent.persistence.test.ttl", null, "TTL.");
    private static final Setting<String> PASSWORD = Setting.text("agent.persistence.test.password", null, "Password.").secret();
    private static final Setting<String> MODE = Setting.choice("agent.persistence.test.mode", "deflate",
            List.of("deflate", "none"), "Mode.");

    @Test
    void readsFromSystemPropertyAndEnvironmentForms() {
        assertThat(LEVEL.read(ProviderConfig.of(Map.of("agent.persistence.test.level", " 7 ")))).isEqualTo(7);
        assertThat(LEVEL.read(ProviderConfig.of(Map.of("AGENT_PERSISTENCE_TEST_LEVEL", "3")))).isEqualTo(3);
        assertThat(LEVEL.read(ProviderConfig.empty())).isEqualTo(1);
        assertThat(SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "16MiB")))).isEqualTo(16L << 20);
        assertThat(SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "10MB")))).isEqualTo(10_000_000L);
        assertThat(TTL.find(ProviderConfig.of(Map.of("agent.persistence.test.ttl", "7d")))).contains(Duration.ofDays(7));
        assertThat(TTL.find(ProviderConfig.empty())).isEmpty();
        assertThat(MODE.read(ProviderConfig.of(Map.of("agent.persistence.test.mode", "NONE")))).isEqualTo("none");
    }

    @Test
    void malformedValuesNameKeyEnvironmentAndExpectation() {
        assertThatThrownBy(() -> LEVEL.read(ProviderConfig.of(Map.of("agent.persistence.test.level", "10"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.test.level").hasMessageContaining("AGENT_PERSISTENCE_TEST_LEVEL")
                .hasMessageContaining("from 1 to 9").hasMessageContaining("'10'");
        assertThatThrownBy(() -> SIZE.read(ProviderConfig.of(Map.of("agent.persistence.test.size", "lots"))))
                .isInstanceOf(PersistenceException.class).hasMessageContaining("16MiB");
        assertThatThrownBy(() -> TTL.read(ProviderConfig.empty()))
                .isInstanceOf(PersistenceException.class).hasMessageContaining("Missing required setting");
        assertThatThrownBy(() -> LEVEL.check(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("agent.persistence.test.level must be an integer from 1 to 9 but was 0");
    }

    @Test
    void secretsAreNeverShown() {
        var secret = Setting.choice("agent.persistence.test.key", "a", List.of("a", "b"), "Key.").secret();
        assertThatThrownBy(() -> secret.read(ProviderConfig.of(Map.of("agent.persistence.test.key", "hunter2"))))
                .hasMessageNotContaining("hunter2").hasMessageContaining("not shown");
        assertThat(PASSWORD.show("hunter2")).isEqualTo("****");
        assertThat(SettingsTable.markdown(List.of(PASSWORD))).doesNotContain("hunter2").contains("secret");
    }

    @Test
    void defaultsAreCheckedAndDocumented() {
        assertThatThrownBy(() -> Setting.integer("agent.persistence.test.bad", 0, 1, 9, "Bad."))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Setting.bool("other.key", true, "Outside."))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SettingsTable.markdown(List.of(SIZE, MODE))).isEqualTo(
                "| key | environment | type | default | description |\n|---|---|---|---|---|\n"
                        + "| `agent.persistence.test.size` | `AGENT_PERSISTENCE_TEST_SIZE` | size | `64MiB` | Size. |\n"
                        + "| `agent.persistence.test.mode` | `AGENT_PERSISTENCE_TEST_MODE` | deflate\\|none | `deflate` | Mode. |\n");
    }
}
