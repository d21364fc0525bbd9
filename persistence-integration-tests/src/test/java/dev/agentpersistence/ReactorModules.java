package dev.agentpersistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The modules of the build as the root POM lists them, so that tests over "every module" cover a new module without
 * being edited.
 */
final class ReactorModules {
    /** The root of the checkout (this module runs its tests from its own directory). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    private ReactorModules() {}

    /** The directories of the modules the root POM lists, in its order. */
    static List<Path> directories() {
        return names().stream().map(ROOT::resolve).toList();
    }

    /** The module names of the root POM's {@code <modules>}, in its order. */
    static List<String> names() {
        String pom;
        try {
            pom = Files.readString(ROOT.resolve("pom.xml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher matcher = MODULE.matcher(pom);
        var names = new java.util.ArrayList<String>();
        while (matcher.find()) {
            names.add(matcher.group(1).trim());
        }
        return List.copyOf(names);
    }
}
