package dev.agentpersistence.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SettingsMetadataTest {

    @Test
    void everySettingBecomesAPropertyWithTypeDefaultAndChoices() throws Exception {
        var settings = List.<Setting<?>>of(
                Setting.integer("agent.persistence.x.pool", 8, 1, 64, "Pool size."),
                Setting.duration("agent.persistence.x.timeout", Duration.ofSeconds(5), "Timeout."),
                Setting.text("agent.persistence.x.password", "hunter2", "Password.")
                        .secret(),
                Setting.choice("agent.persistence.x.mode", "fast", List.of("fast", "small"), "Mode."));
        var json = new ObjectMapper().readTree(SettingsMetadata.springConfigurationMetadata(settings));

        assertThat(json.get("properties")).hasSize(4);
        var pool = json.get("properties").get(0);
        assertThat(pool.get("name").asText()).isEqualTo("agent.persistence.x.pool");
        assertThat(pool.get("type").asText()).isEqualTo("java.lang.Integer");
        assertThat(pool.get("defaultValue").asInt()).isEqualTo(8);
        assertThat(pool.get("description").asText()).isEqualTo("Pool size.");
        assertThat(json.get("properties").get(1).get("type").asText()).isEqualTo("java.time.Duration");
        assertThat(json.get("properties").get(1).get("defaultValue").asText()).isEqualTo("5s");
        assertThat(json.get("properties").get(2).has("defaultValue"))
                .as("a secret's default is never shown")
                .isFalse();
        assertThat(json.toString()).doesNotContain("hunter2");
        assertThat(json.get("hints").get(0).get("name").asText()).isEqualTo("agent.persistence.x.mode");
        assertThat(json.get("hints").get(0).get("values").findValuesAsText("value"))
                .containsExactly("fast", "small");
    }
}
