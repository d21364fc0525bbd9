package dev.agentpersistence.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where the examples keep their files: the directory in the system property
 * {@value #DIRECTORY_PROPERTY} (the examples' pom sets it to {@code examples/target/examples} for
 * {@code exec:java}), else {@code target/examples} under the working directory.
 */
public final class ExampleFiles {
    /** The system property naming the examples' directory. */
    public static final String DIRECTORY_PROPERTY = "agent.persistence.examples.dir";

    private ExampleFiles() {
    }

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

    /** Deletes {@code directory} with everything in it, then creates it empty. */
    public static Path emptyDirectory(Path directory) {
        try {
            if (Files.exists(directory)) {
                Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        Files.delete(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                        Files.delete(dir);
                        return FileVisitResult.CONTINUE;
                    }
                });
            }
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + directory, e);
        }
    }
}
