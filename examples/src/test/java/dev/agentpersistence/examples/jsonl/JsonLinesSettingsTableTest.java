package dev.agentpersistence.examples.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.SettingsTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The examples README shows the JSON Lines settings as declared. */
class JsonLinesSettingsTableTest {

    @Test
    void theReadmeTableIsTheDeclaration() {
        assertThat(SettingsTables.assertReadme(Path.of("README.md"))).isEqualTo(1);
    }
}
