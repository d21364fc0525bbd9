package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer's first hour: the project of the README's "Use it in your project" section, written from the README text
 * as it stands, builds and runs against the artifacts this build made, installed into the local Maven repository as the
 * section's install step does.
 */
class ReadmeConsumerProjectTest {
    @TempDir
    Path directory;

    @Test
    void theReadmeProjectBuildsAndRestoresACheckpoint() throws Exception {
        var project = ConsumerProject.write("README.md", "consumer", directory);
        assertThat(project.paths()).contains("pom.xml", "src/main/java/com/example/App.java");
        ConsumerProject.installBuiltArtifacts(List.of("persistence-api", "persistence-jdbc"));

        // The README's second way: the installed snapshot in place of the released version it names.
        String output = project.build("-q", "compile", "exec:java");
        assertThat(output).contains("Restored first at node plan with 1 message(s)");
        assertThat(directory.resolve("agent-checkpoints.db"))
                .as("the embedded SQLite default")
                .exists();
    }
}
