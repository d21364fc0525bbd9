package dev.agentpersistence.examples;

import java.nio.file.Path;

/**
 * Where the examples keep their files: the directory in the system property {@value #DIRECTORY_PROPERTY} (the examples'
 * pom sets it to {@code examples/target/examples} for {@code exec:java}), else {@code target/examples} under the
 * working directory.
 */
public final class ExampleFiles {
    /** The system property naming the examples' directory. */
    public static final String DIRECTORY_PROPERTY = "agent.persistence.examples.dir";

    private ExampleFiles() {}

    /** The examples' directory (absolute, not created). */
    public static Path root() {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        Path root = configured == null || configured.isBlank() ? Path.of("target", "examples") : Path.of(configured);
        return root.toAbsolutePath().normalize();
    }

    /** {@code name} under {@link #root()} (not created). */
    public static Path path(String name) {
        return root().resolve(name);
    }
}
