package dev.agentpersistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The modules of the build as the root POM lists them, so that tests over "every module" cover a new module without
 * being edited.
 */
final class ReactorModules {
    /** The root of the checkout (this module runs its tests from its own directory). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Where a module registers its storage providers for discovery. */
    static final String PROVIDER_SERVICES =
            "src/main/resources/META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory";

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PARENT = Pattern.compile("<parent>.*?</parent>", Pattern.DOTALL);
    private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

    private ReactorModules() {}

    /** The directories of the modules the root POM lists, in its order. */
    static List<Path> directories() {
        return names().stream().map(ROOT::resolve).toList();
    }

    /** The module names of the root POM's {@code <modules>}, in its order. */
    static List<String> names() {
        Matcher matcher = MODULE.matcher(read(ROOT.resolve("pom.xml")));
        var names = new ArrayList<String>();
        while (matcher.find()) {
            names.add(matcher.group(1).trim());
        }
        return List.copyOf(names);
    }

    /** Every module of the root POM, described from its own POM, sources and service files, in the POM's order. */
    static List<ReactorModule> all() {
        return names().stream().map(ReactorModules::describe).toList();
    }

    /** The module at {@code directory} (relative to the root of the checkout). */
    static ReactorModule describe(String directory) {
        Path module = ROOT.resolve(directory);
        String pom = read(module.resolve("pom.xml"));
        Matcher artifactId = ARTIFACT_ID.matcher(PARENT.matcher(pom).replaceFirst(""));
        if (!artifactId.find()) {
            throw new IllegalStateException(module + "/pom.xml declares no artifactId");
        }
        return new ReactorModule(
                directory,
                artifactId.group(1).trim(),
                rootPackage(module.resolve("src/main/java")),
                providerFactories(module.resolve(PROVIDER_SERVICES)),
                !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>"));
    }

    /** The longest package enclosing every package declared under {@code sources}. */
    private static Optional<String> rootPackage(Path sources) {
        if (!Files.isDirectory(sources)) {
            return Optional.empty();
        }
        List<String> packages;
        try (Stream<Path> files = Files.walk(sources)) {
            packages = files.filter(file -> file.toString().endsWith(".java"))
                    .map(ReactorModules::declaredPackage)
                    .distinct()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packages.stream().reduce(ReactorModules::commonPackage);
    }

    private static String declaredPackage(Path source) {
        Matcher matcher = PACKAGE.matcher(read(source));
        if (!matcher.find()) {
            throw new IllegalStateException(source + " declares no package");
        }
        return matcher.group(1);
    }

    private static String commonPackage(String a, String b) {
        String[] left = a.split("\\.");
        String[] right = b.split("\\.");
        int shared = 0;
        while (shared < Math.min(left.length, right.length) && left[shared].equals(right[shared])) {
            shared++;
        }
        return String.join(".", List.of(left).subList(0, shared));
    }

    private static List<String> providerFactories(Path services) {
        if (!Files.exists(services)) {
            return List.of();
        }
        return read(services)
                .lines()
                .map(line -> line.replaceFirst("#.*", "").trim())
                .filter(line -> !line.isEmpty())
                .toList();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
