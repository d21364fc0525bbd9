package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spring Boot user's first hour: the application of the starter README's quick start (a pom with
 * {@code spring-boot-starter-parent} as parent and the BOM imported, and its application class), written from the
 * README text as it stands, builds and starts against the artifacts this build made, so Boot's dependency management
 * picks the versions; it checkpoints, reads the checkpoint back and exits normally.
 */
class StarterReadmeProjectTest {
    private static final List<String> MODULES = List.of(
            "persistence-api",
            "persistence-jdbc",
            "persistence-jackson3",
            "spring-boot-autoconfigure",
            "spring-boot-starter");

    @TempDir
    Path directory;

    @Test
    void theQuickStartApplicationStartsCheckpointsAndReadsBack() throws Exception {
        var project = ConsumerProject.write("spring-boot-starter/README.md", "spring-boot-consumer", directory);
        assertThat(project.paths()).containsExactly("pom.xml", "src/main/java/com/example/BootApp.java");
        assertThat(Files.readString(directory.resolve("pom.xml")))
                .as("Boot's parent, then the BOM imported")
                .containsSubsequence(
                        "<parent>",
                        "<artifactId>spring-boot-starter-parent</artifactId>",
                        "</parent>",
                        "<dependencyManagement>",
                        "<artifactId>agent-persistence-bom</artifactId>",
                        "<scope>import</scope>");
        ConsumerProject.installBuiltArtifacts(MODULES);

        String output = project.build("-q", "spring-boot:run");
        assertThat(output).contains("Spring Boot restored first at node plan");
        assertThat(directory.resolve("agent-checkpoints.db"))
                .as("the embedded SQLite default")
                .exists();
    }
}
