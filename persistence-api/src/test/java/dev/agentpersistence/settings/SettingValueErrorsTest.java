package dev.agentpersistence.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A malformed setting value is a {@link StorageConfigurationException} (a retry does not help) naming the key, the
 * value — hidden for a secret, credentials hidden for a redacted setting — and the accepted form.
 */
class SettingValueErrorsTest {
    @Test
    void aMalformedValueNamesKeyValueAndAcceptedForm() {
        var timeout = Setting.duration("agent.persistence.demo.timeout", Duration.ofSeconds(5), "A timeout.");

        Throwable failure = catchThrowable(
                () -> timeout.read(ProviderConfig.of(Map.of("agent.persistence.demo.timeout", "5 sec"))));

        assertThat(failure)
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("agent.persistence.demo.timeout")
                .hasMessageContaining("'5 sec'")
                .hasMessageContaining("duration");
    }

    @Test
    void aValueOutOfBoundsNamesTheBounds() {
        var pool = Setting.integer("agent.persistence.demo.pool-size", 10, 1, 100, "Connections.");

        assertThat(catchThrowable(() -> pool.find(ProviderConfig.of(Map.of("agent.persistence.demo.pool-size", "0")))))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessage("Setting 'agent.persistence.demo.pool-size' (environment AGENT_PERSISTENCE_DEMO_POOL_SIZE)"
                        + " must be an integer from 1 to 100 but was '0'");
    }

    @Test
    void aSecretValueIsNotShown() {
        var key = Setting.integer("agent.persistence.demo.pin", null, 0, 9999, "A pin.")
                .secret();

        assertThat(catchThrowable(() -> key.read(ProviderConfig.of(Map.of("agent.persistence.demo.pin", "hunter2")))))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("agent.persistence.demo.pin")
                .hasMessageContaining("not shown (secret)")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aRedactedValueIsShownWithItsCredentialsHidden() {
        var url = Setting.text("agent.persistence.demo.url", null, "A URL.")
                .checkedBy(v -> v.startsWith("demo://") ? null : "a demo:// URL")
                .redacted();

        assertThat(catchThrowable(() ->
                        url.read(ProviderConfig.of(Map.of("agent.persistence.demo.url", "http://app:hunter2@host/x")))))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("must be a demo:// URL")
                .hasMessageContaining("http://app:****@host/x")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aMissingRequiredSettingIsAConfigurationError() {
        var bucket = Setting.text("agent.persistence.demo.bucket", null, "The bucket.");

        assertThat(catchThrowable(() -> bucket.read(ProviderConfig.empty())))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("Missing required setting 'agent.persistence.demo.bucket'");
    }
}
