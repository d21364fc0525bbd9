package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The layering rules of ARCHITECTURE.md ({@link ArchitectureRules}), checked on the production classes of every module
 * the root POM lists; every such module is a test dependency of this one.
 */
class ArchitectureTest {
    private static List<ReactorModule> modules;
    private static ArchitectureRules rules;

    @BeforeAll
    static void importClasses() {
        modules = ReactorModules.all();
        rules = new ArchitectureRules(
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages(ArchitectureRules.ROOT_PACKAGE), // the modules' jars on the class path
                modules);
    }

    @TestFactory
    Stream<DynamicTest> everyRuleHolds() {
        return rules.all().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getDescription(), () -> rules.check(rule)));
    }

    @Test
    void everyModuleOfTheRootPomWithMainCodeYieldsClasses() {
        assertThat(modules).filteredOn(ReactorModule::hasMainCode).hasSizeGreaterThan(1);
        assertThat(rules.modulesWithoutClasses())
                .as("modules of the root POM whose classes are not on this module's test class path (add them as"
                        + " test dependencies of persistence-integration-tests)")
                .isEmpty();
    }

    @Test
    void everyKindOfModuleTheRulesSpeakOfIsFound() {
        assertThat(modules).filteredOn(ReactorModule::isBackend).isNotEmpty();
        assertThat(modules).filteredOn(ReactorModule::isIntegration).isNotEmpty();
        assertThat(modules)
                .as("the API module, whose root package encloses every other module's")
                .filteredOn(module -> module.rootPackage().equals(Optional.of(ArchitectureRules.ROOT_PACKAGE)))
                .hasSize(1);
        assertThat(modules)
                .filteredOn(ReactorModule::hasMainCode)
                .allSatisfy(module -> assertThat(module.rootPackage().orElseThrow() + ".")
                        .as("the root package of %s", module.directory())
                        .startsWith(ArchitectureRules.ROOT_PACKAGE + "."));
        assertThat(rules.namedButAbsent())
                .as("packages and types the rules name that no class is or lies in")
                .isEmpty();
    }
}
