package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.tck.SettingsTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of the READMEs and the configuration metadata of the modules are the {@code Setting}
 * declarations, for every module of the root POM: the API's shared settings and each registered provider's own.
 */
class SettingsDocumentationTest {
    /** Where a module ships the Spring Boot configuration metadata of its settings. */
    private static final String METADATA = "src/main/resources/META-INF/spring-configuration-metadata.json";

    private static final List<ReactorModule> MODULES = ReactorModules.all();

    @Test
    void theSharedTableOfTheMainReadmeIsTheDeclarations() {
        assertThat(SettingsTables.assertReadme(ReactorModules.ROOT.resolve("README.md")))
                .isEqualTo(1);
    }

    @Test
    void everyModuleReadmeTableIsTheDeclarations() {
        int checked = 0;
        for (ReactorModule module : MODULES) {
            Path readme = ReactorModules.ROOT.resolve(module.directory()).resolve("README.md");
            if (Files.exists(readme)) {
                checked += SettingsTables.assertReadme(readme);
            }
        }
        assertThat(checked)
                .as("module settings tables checked")
                .isGreaterThanOrEqualTo(declaringFactories().size());
    }

    @Test
    void everyProviderWithSettingsHasItsTableInItsModuleReadme() throws IOException {
        for (ReactorModule module : MODULES) {
            for (PersistenceStorageProviderFactory factory : declaringFactories(module)) {
                Path readme = ReactorModules.ROOT.resolve(module.directory()).resolve("README.md");
                assertThat(Files.exists(readme) ? Files.readString(readme) : "(no README)")
                        .as("%s documents the settings of provider '%s'", readme, factory.name())
                        .contains("<!-- settings: " + factory.name() + " -->");
            }
        }
        assertThat(declaringFactories()).as("providers declaring settings").isNotEmpty();
    }

    @Test
    void everyPublishedProviderModuleShipsConfigurationMetadataOfItsDeclarations() {
        ReactorModule api = MODULES.stream()
                .filter(module -> module.rootPackage().equals(Optional.of(ArchitectureRules.ROOT_PACKAGE)))
                .findFirst()
                .orElseThrow();
        SettingsTables.assertMetadata(metadata(api), "shared");
        int checked = 0;
        for (ReactorModule module : MODULES) {
            for (PersistenceStorageProviderFactory factory : declaringFactories(module)) {
                if (module.published() || Files.exists(metadata(module))) {
                    SettingsTables.assertMetadata(metadata(module), factory.name());
                    checked++;
                }
            }
        }
        assertThat(checked).as("provider metadata files checked").isPositive();
    }

    /** Every registered provider of the build that declares settings of its own. */
    private static List<PersistenceStorageProviderFactory> declaringFactories() {
        return MODULES.stream()
                .flatMap(module -> declaringFactories(module).stream())
                .toList();
    }

    /** The module's registered providers that declare settings of their own, found on the class path. */
    private static List<PersistenceStorageProviderFactory> declaringFactories(ReactorModule module) {
        return module.providerFactories().stream()
                .map(SettingsDocumentationTest::factory)
                .filter(factory -> !factory.settings().isEmpty())
                .toList();
    }

    private static PersistenceStorageProviderFactory factory(String className) {
        return PersistenceStorageProviders.available().stream()
                .filter(factory -> factory.getClass().getName().equals(className))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        className + " is registered by a module of the build but not discovered on this module's test"
                                + " class path; add the module as a test dependency"));
    }

    private static Path metadata(ReactorModule module) {
        return ReactorModules.ROOT.resolve(module.directory()).resolve(METADATA);
    }
}
