package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.SettingsTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of the main README and of every provider module's README are the declarations (the examples
 * module checks its own, since its factory is not on this class path).
 */
class SettingsDocumentationTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theSharedTableOfTheMainReadmeIsTheDeclarations() {
        assertThat(SettingsTables.assertReadme(ROOT.resolve("README.md"))).isEqualTo(1);
    }

    @Test
    void everyProviderModuleReadmeTableIsTheDeclarations() {
        int checked = 0;
        for (String module : new String[] {
            "persistence-inmemory", "persistence-file", "persistence-jdbc", "persistence-redis", "persistence-s3"
        }) {
            Path readme = ROOT.resolve(module).resolve("README.md");
            if (readme.toFile().exists()) {
                checked += SettingsTables.assertReadme(readme);
            }
        }
        assertThat(checked).as("provider tables checked").isGreaterThanOrEqualTo(2);
    }

    @Test
    void everyModuleShipsConfigurationMetadataOfItsDeclarations() {
        SettingsTables.assertMetadata(metadata("persistence-api"), "shared");
        for (String provider : new String[] {"file", "jdbc", "redis", "s3"}) {
            SettingsTables.assertMetadata(metadata("persistence-" + provider), provider);
        }
    }

    private static Path metadata(String module) {
        return ROOT.resolve(module).resolve("src/main/resources/META-INF/spring-configuration-metadata.json");
    }
}
