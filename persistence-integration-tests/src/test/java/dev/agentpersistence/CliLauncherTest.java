package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's launcher script ({@code persistence-cli/bin/agent-persistence}) over the jar this build packaged:
 * first runs started together write one class-data sharing archive beside the jar and leave no partial file, and a
 * later run maps it (with {@code -Xshare:on} the JVM refuses to start when it cannot).
 */
class CliLauncherTest {
    private static final Path SCRIPT = ReactorModules.ROOT.resolve("persistence-cli/bin/agent-persistence");
    private static final Path JAR = ReactorModules.ROOT.resolve("persistence-cli/target/agent-persistence-cli.jar");

    @Test
    void firstRunsStartedTogetherLeaveOneWholeArchiveThatLaterRunsMap(@TempDir Path directory) throws Exception {
        assertThat(JAR)
                .as("the command line's jar; run the build through the package phase (mvn verify)")
                .exists();
        Path jar = Files.copy(JAR, directory.resolve("cli.jar"));

        Process first = start(jar, Map.of());
        Process second = start(jar, Map.of());
        assertThat(output(first)).contains("agent-persistence");
        assertThat(output(second)).contains("agent-persistence");

        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder("cli.jar", "cli.jsa");
        }
        Process mapped = start(jar, Map.of("JAVA_OPTS", "-Xshare:on"));
        assertThat(output(mapped)).contains("agent-persistence");
    }

    private static Process start(Path jar, Map<String, String> environment) throws IOException {
        var builder = new ProcessBuilder(List.of("sh", SCRIPT.toString(), "--version")).redirectErrorStream(true);
        builder.environment().put("AGENT_PERSISTENCE_CLI_JAR", jar.toString());
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** What the run printed, once it ended with exit code 0. */
    private static String output(Process process) throws Exception {
        boolean finished = process.waitFor(2, TimeUnit.MINUTES);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(finished && process.exitValue() == 0)
                .as("the launcher failed:%n%s", output)
                .isTrue();
        return output;
    }
}
