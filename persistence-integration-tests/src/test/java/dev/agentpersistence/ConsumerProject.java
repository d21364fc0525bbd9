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

/**
 * A project a README spells out file by file ({@code <!-- marker: path -->} before each code block), written into a
 * directory as the README has it and built with Maven against the artifacts this build made, installed into the local
 * Maven repository as the README's install step does. The child Maven runs with the build's local repository
 * ({@code maven.repo.local}, which the module's Surefire configuration passes on).
 */
final class ConsumerProject {
    static final Path ROOT = ReactorModules.ROOT;
    static final String VERSION = "0.1.0-SNAPSHOT";

    private final Path directory;
    private final List<String> paths;

    private ConsumerProject(Path directory, List<String> paths) {
        this.directory = directory;
        this.paths = List.copyOf(paths);
    }

    /** Writes the files {@code readme} (relative to the checkout) names with {@code marker} into {@code directory}. */
    static ConsumerProject write(String readme, String marker, Path directory) throws IOException {
        Map<String, String> files = files(Files.readString(ROOT.resolve(readme)), marker);
        assertThat(files)
                .as("the files %s names with <!-- %s: path -->", readme, marker)
                .isNotEmpty();
        for (var file : files.entrySet()) {
            Path target = directory.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }
        return new ConsumerProject(directory, new ArrayList<>(files.keySet()));
    }

    /** The files {@code readme} names with {@code <!-- marker: path -->} before a code block, by path. */
    private static Map<String, String> files(String readme, String marker) {
        var pattern = Pattern.compile(
                "<!-- " + Pattern.quote(marker) + ": (\\S+) -->\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);
        var files = new LinkedHashMap<String, String>();
        var matcher = pattern.matcher(readme);
        while (matcher.find()) {
            files.put(matcher.group(1), matcher.group(2));
        }
        return files;
    }

    /** The paths of the files the README gave, in its order. */
    List<String> paths() {
        return paths;
    }

    /** Runs Maven in the project with the installed snapshot in place of the released version the README names. */
    String build(String... arguments) throws IOException, InterruptedException {
        var all = new ArrayList<String>();
        all.add("-Dagent-persistence.version=" + VERSION);
        all.addAll(List.of(arguments));
        return maven(directory, all.toArray(String[]::new));
    }

    /**
     * The parent POM, the BOM and the jars of {@code modules}, as {@code mvn install} puts them into the local
     * repository.
     */
    static void installBuiltArtifacts(List<String> modules) throws Exception {
        install(ROOT.resolve("pom.xml"), ROOT.resolve("pom.xml"));
        install(ROOT.resolve("bom/pom.xml"), ROOT.resolve("bom/pom.xml"));
        for (String module : modules) {
            Path jar = jarOf(module);
            assertThat(jar)
                    .as("the jar of %s; run the build through the package phase (mvn verify)", module)
                    .exists();
            install(ROOT.resolve(module).resolve("pom.xml"), jar);
        }
    }

    /** The jar the build made in {@code module}'s target directory, named after its artifact id. */
    private static Path jarOf(String module) {
        String artifactId = ReactorModules.describe(module).artifactId();
        return ROOT.resolve(module).resolve("target").resolve(artifactId + "-" + VERSION + ".jar");
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
    static String maven(Path directory, String... arguments) throws IOException, InterruptedException {
        MavenRun run = run(directory, arguments);
        assertThat(run.succeeded())
                .as("%s in %s failed:%n%s", run.command(), directory, run.output())
                .isTrue();
        return run.output();
    }

    /** What one Maven run printed and whether it succeeded (finished within five minutes with exit code 0). */
    record MavenRun(List<String> command, boolean succeeded, String output) {}

    /** Runs Maven in {@code directory} with the build's local repository, successful or not. */
    static MavenRun run(Path directory, String... arguments) throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(System.getProperty("os.name").startsWith("Windows") ? "mvn.cmd" : "mvn");
        command.add("-B");
        String repository = System.getProperty("maven.repo.local", "");
        if (!repository.isBlank()) {
            command.add("-Dmaven.repo.local=" + repository);
        }
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
            return new MavenRun(command, finished && maven.exitValue() == 0, output);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
