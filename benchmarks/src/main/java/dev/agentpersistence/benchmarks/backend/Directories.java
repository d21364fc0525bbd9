package dev.agentpersistence.benchmarks.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;

/** Size and removal of directory trees, and the directory the benchmarks write to. */
public final class Directories {
    private Directories() {}

    /** {@code benchmarks/target} when run from the jar or the classes there; else {@code ./target}. */
    public static Path target() throws URISyntaxException {
        Path location = Path.of(Directories.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path parent = location.getParent();
        return parent != null
                        && parent.getFileName() != null
                        && parent.getFileName().toString().equals("target")
                ? parent
                : Path.of("target").toAbsolutePath();
    }

    /** Bytes of the regular files under {@code root}, each file counted once however many hard links name it. */
    public static long size(Path root) {
        if (!Files.exists(root)) {
            return 0;
        }
        Set<Object> seen = new HashSet<>();
        long[] total = {0};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    Object key = attributes.fileKey() != null ? attributes.fileKey() : file;
                    if (attributes.isRegularFile() && seen.add(key)) {
                        total[0] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot measure " + root, e);
        }
        return total[0];
    }

    /** Deletes {@code root} and everything under it; nothing when it does not exist. */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                    Files.deleteIfExists(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + root, e);
        }
    }
}
