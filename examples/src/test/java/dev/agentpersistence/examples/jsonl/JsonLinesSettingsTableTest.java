package dev.agentpersistence.examples.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.SettingsTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The examples README shows the settings of its two example backends (JSON Lines, indexed) as declared. */
class JsonLinesSettingsTableTest {

    @Test
    void theReadmeTableIsTheDeclaration() {
        assertThat(SettingsTables.assertReadme(Path.of("README.md"))).isEqualTo(2);
    }
}
