package dev.agentpersistence;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The layering rules of ARCHITECTURE.md, checked on the production classes of every module on this module's class path.
 */
class ArchitectureTest {
    /**
     * Packages a backend module never reaches. {@code CheckpointCodec} is the one exception: the deprecated
     * {@code codec(...)} builder methods take it so that user code keeps compiling.
     */
    private static final List<String> FORBIDDEN_TO_BACKENDS = List.of(
            "dev.agentpersistence.codec",
            "dev.agentpersistence.history",
            "dev.agentpersistence.storage.internal",
            "dev.agentpersistence.internal");

    /** Modules that implement a backend under the storage shell. */
    private static final List<String> BACKEND_MODULES = List.of("inmemory", "file", "jdbc", "redis", "s3");

    /** Modules that adapt an agent framework to the provider SPI. */
    private static final List<String> INTEGRATION_MODULES = List.of("langgraph4j", "koog", "langchain4j", "springai");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.agentpersistence"); // the modules' jars on this module's class path
    }

    @Test
    @DisplayName("the packages below the root, each with its internal subpackages, are free of cycles")
    void noPackageCycles() {
        // A package and its .internal subpackages form one slice: the public types delegate to the
        // internals, which speak the public types. The root holds the data model the SPI speaks and the
        // facade that uses the SPI: that pair is the API by design and stays outside the slices.
        slices().matching("dev.agentpersistence.(*)..")
                .namingSlices("$1")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    @DisplayName("backend modules never reach the stored form, the history layer, the shell's internals or the guards")
    void backendsStayBelowTheShell() {
        for (String module : BACKEND_MODULES) {
            noClasses()
                    .that()
                    .resideInAPackage("dev.agentpersistence." + module + "..")
                    .should()
                    .dependOnClassesThat(DescribedPredicate.describe(
                            "stored form, history layer or guards",
                            (JavaClass target) -> FORBIDDEN_TO_BACKENDS.stream()
                                                    .anyMatch(target.getPackageName()::startsWith)
                                            && !target.getName().equals("dev.agentpersistence.codec.CheckpointCodec")
                                    || target.getName().equals("dev.agentpersistence.internal.StorageChecks")))
                    .because("the storage shell owns ids, the stored form and history; a backend stores bytes")
                    .check(classes);
        }
    }

    @Test
    @DisplayName("no module reaches another module's internal packages")
    void internalsStayInTheirModule() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.agentpersistence..")
                .or()
                .resideInAnyPackage(
                        "dev.agentpersistence.pipeline..",
                        "dev.agentpersistence.examples..",
                        "dev.agentpersistence.benchmarks..",
                        "dev.agentpersistence.inmemory..",
                        "dev.agentpersistence.file..",
                        "dev.agentpersistence.jdbc..",
                        "dev.agentpersistence.redis..",
                        "dev.agentpersistence.s3..",
                        "dev.agentpersistence.langgraph4j..",
                        "dev.agentpersistence.koog..",
                        "dev.agentpersistence.langchain4j..",
                        "dev.agentpersistence.springai..",
                        "dev.agentpersistence.spring..",
                        "dev.agentpersistence.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.agentpersistence.internal..",
                        "dev.agentpersistence.history.internal..",
                        "dev.agentpersistence.storage.internal..",
                        "dev.agentpersistence.memory.internal..")
                .check(classes);
        for (String module : BACKEND_MODULES) {
            noClasses()
                    .that()
                    .resideOutsideOfPackage("dev.agentpersistence." + module + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("dev.agentpersistence." + module + ".internal..")
                    .check(classes);
        }
    }

    @Test
    @DisplayName("integrations speak the public API only: no internal package, no storage module")
    void integrationsUseThePublicApiOnly() {
        for (String module : INTEGRATION_MODULES) {
            String own = "dev.agentpersistence." + module;
            String[] forbidden = new String[BACKEND_MODULES.size() + 1];
            forbidden[0] = "dev.agentpersistence.storage..";
            for (int i = 0; i < BACKEND_MODULES.size(); i++) {
                forbidden[i + 1] = "dev.agentpersistence." + BACKEND_MODULES.get(i) + "..";
            }
            noClasses()
                    .that()
                    .resideInAPackage(own + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(forbidden)
                    .orShould()
                    .dependOnClassesThat(DescribedPredicate.describe(
                            "another module's internal package",
                            (JavaClass target) -> target.getPackageName().contains(".internal")
                                    && !target.getPackageName().startsWith(own + ".")))
                    .because("an integration works over any PersistenceStorageProvider")
                    .check(classes);
            org.assertj.core.api.Assertions.assertThat(classes.stream()
                            .anyMatch(c -> c.getPackageName().startsWith("dev.agentpersistence." + module)))
                    .as("the %s module is on this module's test class path", module)
                    .isTrue();
        }
    }

    @Test
    @DisplayName("one name, one thing: no two production classes share a simple name")
    void uniqueSimpleNames() {
        var seen = new java.util.HashMap<String, String>();
        var clashes = new java.util.ArrayList<String>();
        for (var javaClass : classes) {
            if (javaClass.isNestedClass()
                    || javaClass.isAnonymousClass()
                    || javaClass.getSimpleName().equals("package-info")) {
                continue;
            }
            String previous = seen.putIfAbsent(javaClass.getSimpleName(), javaClass.getName());
            if (previous != null) {
                clashes.add(previous + " and " + javaClass.getName());
            }
        }
        org.assertj.core.api.Assertions.assertThat(clashes)
                .as("classes sharing a simple name")
                .isEmpty();
    }
}
