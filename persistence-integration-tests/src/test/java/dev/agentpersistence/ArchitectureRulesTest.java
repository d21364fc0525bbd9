package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.lang.ArchRule;
import dev.agentpersistence.planted.backend.PlantedStorageProviderFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules bite: each planted module under {@code dev.agentpersistence.planted} (test classes, described here as
 * modules beside the build's own) breaks one rule, and that rule reports it by name.
 */
class ArchitectureRulesTest {
    private static final String PLANTED = "dev.agentpersistence.planted";

    private static ArchitectureRules rules;

    @BeforeAll
    static void importPlantedModules() {
        var locations = new HashSet<Location>(Locations.ofPackage(PLANTED));
        locations.addAll(Locations.ofClass(PlantedDataModelType.class));
        JavaClasses planted = new ClassFileImporter().importLocations(locations);
        var modules = new ArrayList<>(ReactorModules.all());
        modules.add(planted("planted-backend", "backend", List.of(PlantedStorageProviderFactory.class.getName())));
        modules.add(planted("planted-reach", "reach", List.of()));
        modules.add(planted("planted-cycle", "cycle", List.of()));
        modules.add(planted(ReactorModule.INTEGRATION_PREFIX + "planted", "integration", List.of()));
        modules.add(planted("planted-twins", "twins", List.of()));
        modules.add(planted("planted-absent", "absent", List.of()));
        rules = new ArchitectureRules(planted, modules);
    }

    @Test
    void aBackendReachingTheGuardsOrTheShellsInternalsIsReported() {
        ArchRule rule = rules.backendsStayBelowTheShell();
        assertViolation(rule)
                .hasMessageContaining(PLANTED + ".backend.PlantedStorageBackend.insert(java.lang.String)> calls method"
                        + " <dev.agentpersistence.internal.StorageChecks.requireAgentId(java.lang.String)>")
                .hasMessageContaining(PLANTED + ".backend.PlantedStorageBackend.attributes()> references class object"
                        + " <dev.agentpersistence.storage.internal.FilterAttributes>")
                .hasMessageNotContaining("PlantedStorageProviderFactory");
    }

    @Test
    void aModuleReachingAnotherModulesInternalsIsReported() {
        assertViolation(rules.internalsStayInTheirModule())
                .hasMessageFindingMatch("PlantedReacher\\.count\\(\\)> calls constructor <" + PLANTED
                        + "\\.backend\\.internal\\.PlantedRecords\\.<init>\\(\\)> in \\(PlantedReacher\\.java:\\d+\\),"
                        + " internal to planted-backend")
                .hasMessageFindingMatch("StorageChecks\\.requireAgentId\\(java\\.lang\\.String\\)> in"
                        + " \\(PlantedStorageBackend\\.java:\\d+\\), internal to persistence-api")
                .hasMessageNotContaining("PlantedSaver");
    }

    @Test
    void aPackageCycleIsReported() {
        assertViolation(rules.packagesFreeOfCycles())
                .hasMessageContaining("Cycle detected: Slice " + PLANTED + ".cycle.ping")
                .hasMessageContaining("Slice " + PLANTED + ".cycle.pong")
                .hasMessageNotContaining("twins");
    }

    @Test
    void anIntegrationUsingAStorageModuleOrTheShellIsReported() {
        assertViolation(rules.integrationsUseThePublicApiOnly())
                .hasMessageContaining(PLANTED + ".integration.PlantedSaver.open()> calls method"
                        + " <dev.agentpersistence.inmemory.InMemoryStorage.builder()>")
                .hasMessageContaining(PLANTED + ".integration.PlantedSaver.open()> has return type"
                        + " <dev.agentpersistence.storage.StorageShell>");
    }

    @Test
    void aDataModelTypeOfTheRootPackageUsingAPackageBelowIsReported() {
        assertViolation(rules.rootDataModelDependsOnPlainTypesOnly())
                .hasMessageContaining("dev.agentpersistence.PlantedDataModelType.discovery()> references class object"
                        + " <dev.agentpersistence.spi.PersistenceStorageProviders>");
    }

    @Test
    void twoClassesSharingASimpleNameAreReported() {
        assertViolation(rules.uniqueSimpleNames())
                .hasMessageContaining(
                        PLANTED + ".twins.one.Twin shares its simple name with [" + PLANTED + ".twins.two.Twin]")
                .hasMessageContaining(
                        PLANTED + ".twins.two.Twin shares its simple name with [" + PLANTED + ".twins.one.Twin]");
    }

    @Test
    void aModuleWithoutClassesIsReported() {
        assertThat(rules.modulesWithoutClasses())
                .contains("planted-absent")
                .doesNotContain(
                        "planted-backend",
                        "planted-reach",
                        "planted-cycle",
                        ReactorModule.INTEGRATION_PREFIX + "planted",
                        "planted-twins");
    }

    @Test
    void theModuleKindsComeFromTheDescriptions() {
        var backend = planted("planted-backend", "backend", List.of(PLANTED + ".backend.x.Factory"));
        assertThat(backend.isBackend()).isTrue();
        assertThat(backend.providerPackages()).containsExactly(PLANTED + ".backend.x");
        assertThat(backend.isIntegration()).isFalse();
        assertThat(planted(ReactorModule.INTEGRATION_PREFIX + "x", "x", List.of())
                        .isIntegration())
                .isTrue();
        assertThat(ReactorModules.describe("persistence-jdbc").providerPackages())
                .containsExactly("dev.agentpersistence.jdbc");
        assertThat(ReactorModules.describe("examples").providerPackages())
                .containsExactlyInAnyOrder(
                        "dev.agentpersistence.examples.jsonl", "dev.agentpersistence.examples.indexed");
        assertThat(ReactorModules.describe("spring-boot-starter").hasMainCode()).isFalse();
        assertThat(ReactorModules.describe("integration-spring-ai").rootPackage())
                .contains("dev.agentpersistence.springai");
        assertThat(ReactorModules.describe("integration-spring-ai").artifactId())
                .isEqualTo("agent-persistence-spring-ai");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertViolation(ArchRule rule) {
        return assertThatThrownBy(() -> rules.check(rule))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Rule '" + rule.getDescription() + "' was violated");
    }

    private static ReactorModule planted(String directory, String subpackage, List<String> factories) {
        return new ReactorModule(directory, directory, Optional.of(PLANTED + "." + subpackage), factories, false);
    }
}
