package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer's first hour: the project of the README's "Use it in your project" section, written from the README text
 * as it stands, builds and runs against the artifacts this build made, installed into the local Maven repository as the
 * section's install step does.
 */
class ReadmeConsumerProjectTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String VERSION = "0.1.0-SNAPSHOT";
    private static final Pattern FILE =
            Pattern.compile("<!-- consumer: (\\S+) -->\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path project;

    @Test
    void theReadmeProjectBuildsAndRestoresACheckpoint() throws Exception {
        Map<String, String> files = consumerFiles(Files.readString(ROOT.resolve("README.md")));
        assertThat(files).containsKeys("pom.xml", "src/main/java/com/example/App.java");
        for (var file : files.entrySet()) {
            Path target = project.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }
        installBuiltArtifacts();

        // The README's second way: the installed snapshot in place of the released version it names.
        String output = maven(project, "-q", "-Dagent-persistence.version=" + VERSION, "compile", "exec:java");
        assertThat(output).contains("Restored first at node plan with 1 message(s)");
        assertThat(project.resolve("agent-checkpoints.db"))
                .as("the embedded SQLite default")
                .exists();
    }

    /** The files the README names with {@code <!-- consumer: path -->} before a code block. */
    private static Map<String, String> consumerFiles(String readme) {
        var files = new LinkedHashMap<String, String>();
        var matcher = FILE.matcher(readme);
        while (matcher.find()) {
            files.put(matcher.group(1), matcher.group(2));
        }
        return files;
    }

    /** The parent POM, the BOM and the jars of the modules the project uses, as {@code mvn install} puts them. */
    private static void installBuiltArtifacts() throws Exception {
        install(ROOT.resolve("pom.xml"), ROOT.resolve("pom.xml"));
        install(ROOT.resolve("bom/pom.xml"), ROOT.resolve("bom/pom.xml"));
        for (String module : List.of("persistence-api", "persistence-jdbc")) {
            Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + VERSION + ".jar");
            assertThat(jar)
                    .as("the jar of %s; run the build through the package phase (mvn verify)", module)
                    .exists();
            install(ROOT.resolve(module).resolve("pom.xml"), jar);
        }
    }

    private static void install(Path pom, Path file) throws Exception {
        maven(
                ROOT,
                "-q",
                "org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file",
                "-DpomFile=" + pom,
                "-Dfile=" + file);
    }

    /** Runs Maven in {@code directory}; returns what it printed, or fails with it. */
    private static String maven(Path directory, String... arguments) throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(System.getProperty("os.name").startsWith("Windows") ? "mvn.cmd" : "mvn");
        command.add("-B");
        command.addAll(List.of(arguments));
        Path log = Files.createTempFile("maven", ".log");
        try {
            Process maven = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            boolean finished = maven.waitFor(5, TimeUnit.MINUTES);
            if (!finished) {
                maven.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(finished && maven.exitValue() == 0)
                    .as("%s in %s failed:%n%s", command, directory, output)
                    .isTrue();
            return output;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
