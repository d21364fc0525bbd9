package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.SettingsTable;
import dev.agentpersistence.storage.StorageSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of the READMEs are the declarations: every block between
 * {@code <!-- settings: NAME -->} and {@code <!-- /settings -->} must equal the table generated from
 * {@link StorageSettings#SETTINGS} ({@code shared}) or from the settings of the factory named NAME.
 */
class SettingsDocumentationTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern BLOCK = Pattern.compile("<!-- settings: ([a-z0-9-]+) -->\\n(.*?)<!-- /settings -->",
            Pattern.DOTALL);

    @Test
    void everySettingsTableOfEveryReadmeEqualsTheDeclarations() throws IOException {
        int checked = 0;
        try (var files = Files.walk(ROOT, 2)) {
            for (Path readme : files.filter(f -> f.getFileName().toString().equals("README.md")).toList()) {
                var matcher = BLOCK.matcher(Files.readString(readme));
                while (matcher.find()) {
                    assertThat(matcher.group(2)).as("settings table '%s' in %s (regenerate it from the declarations)",
                            matcher.group(1), ROOT.relativize(readme)).isEqualTo(table(matcher.group(1)));
                    checked++;
                }
            }
        }
        assertThat(checked).as("settings tables found").isGreaterThanOrEqualTo(1);
    }

    @Test
    void theSharedTableListsEverySharedSetting() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme).contains("<!-- settings: shared -->\n" + table("shared") + "<!-- /settings -->");
    }

    private static String table(String name) {
        if (name.equals("shared")) {
            return SettingsTable.markdown(StorageSettings.SETTINGS);
        }
        return PersistenceStorageProviders.available().stream().filter(f -> f.name().equals(name)).findFirst()
                .map(factory -> SettingsTable.markdown(factory.settings()))
                .orElseThrow(() -> new AssertionError("no provider factory named '" + name + "' on the class path"));
    }
}
