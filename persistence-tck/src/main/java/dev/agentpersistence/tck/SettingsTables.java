package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingsMetadata;
import dev.agentpersistence.settings.SettingsTable;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.storage.StorageSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps the settings tables of a README equal to the declarations: every block between {@code <!-- settings: NAME -->}
 * and {@code <!-- /settings -->} must be the table {@link SettingsTable#markdown} makes from
 * {@link StorageSettings#SETTINGS} ({@code shared}) or from the {@link PersistenceStorageProviderFactory#settings()} of
 * the factory named NAME on the class path.
 *
 * <pre>{@code
 * @Test
 * void readmeTablesAreTheDeclarations() {
 *     SettingsTables.assertReadme(Path.of("README.md"));
 * }
 * }</pre>
 *
 * Run the test with {@code -Dsettings-tables.update=true} to rewrite the tables from the declarations instead.
 */
public final class SettingsTables {
    private static final Pattern BLOCK =
            Pattern.compile("<!-- settings: ([a-z0-9-]+) -->\\n(.*?)<!-- /settings -->", Pattern.DOTALL);

    private SettingsTables() {}

    /**
     * Checks every settings table of {@code readme}; returns how many it checked.
     *
     * @throws AssertionError naming the table that differs, or a factory that is not on the class path
     */
    public static int assertReadme(Path readme) {
        boolean update = Boolean.getBoolean("settings-tables.update");
        try {
            String text = Files.readString(readme);
            var matcher = BLOCK.matcher(text);
            var updated = new StringBuilder();
            int checked = 0;
            while (matcher.find()) {
                String table = table(matcher.group(1));
                if (!update) {
                    assertThat(matcher.group(2))
                            .as(
                                    "settings table '%s' in %s: regenerate it from the declarations"
                                            + " with -Dsettings-tables.update=true",
                                    matcher.group(1), readme)
                            .isEqualTo(table);
                }
                matcher.appendReplacement(
                        updated,
                        Matcher.quoteReplacement(
                                "<!-- settings: " + matcher.group(1) + " -->\n" + table + "<!-- /settings -->"));
                checked++;
            }
            if (update) {
                Files.writeString(readme, matcher.appendTail(updated).toString());
            }
            return checked;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Checks that {@code file} (a module's {@code META-INF/spring-configuration-metadata.json}) is the metadata
     * {@link SettingsMetadata} makes of {@code shared} or of the factory named {@code name}; with
     * {@code -Dsettings-tables.update=true} writes it instead.
     */
    public static void assertMetadata(Path file, String name) {
        String metadata = SettingsMetadata.springConfigurationMetadata(settings(name));
        try {
            if (Boolean.getBoolean("settings-tables.update")) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, metadata);
            }
            assertThat(Files.exists(file) ? Files.readString(file) : "(missing)")
                    .as("%s: regenerate it from the declarations with -Dsettings-tables.update=true", file)
                    .isEqualTo(metadata);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table of {@code shared} or of the factory named {@code name}. */
    public static String table(String name) {
        return SettingsTable.markdown(settings(name));
    }

    private static List<? extends Setting<?>> settings(String name) {
        if (name.equals("shared")) {
            return StorageSettings.SETTINGS;
        }
        return PersistenceStorageProviders.available().stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .map(PersistenceStorageProviderFactory::settings)
                .orElseThrow(() -> new AssertionError("no provider factory named '" + name + "' on the class path"));
    }
}
