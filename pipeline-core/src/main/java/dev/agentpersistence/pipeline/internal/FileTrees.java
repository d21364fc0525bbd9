package dev.agentpersistence.pipeline.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Directory copying and deletion for workspace backups. I/O errors become {@link UncheckedIOException}. */
public final class FileTrees {
    private FileTrees() {}

    /** Copies the contents of {@code source} into the existing directory {@code target}, replacing files. */
    public static void copyContents(Path source, Path target) {
        try {
            Files.walkFileTree(source, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    Files.createDirectories(
                            target.resolve(source.relativize(dir).toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.copy(
                            file,
                            target.resolve(source.relativize(file).toString()),
                            StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.COPY_ATTRIBUTES,
                            LinkOption.NOFOLLOW_LINKS);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + source + " to " + target, e);
        }
    }

    /** Deletes everything inside {@code dir}, keeping {@code dir} itself. */
    public static void deleteContents(Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : children.toList()) {
                deleteTree(child);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + dir, e);
        }
    }

    /** Deletes {@code path} and, for a directory, everything below it; a missing path is fine. */
    public static void deleteTree(Path path) {
        try {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(path);
                return;
            }
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    if (failure != null) {
                        throw failure;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }

    /** The regular files below {@code root}, as {@code /}-separated relative paths, sorted. */
    public static List<String> regularFiles(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            var files = new ArrayList<String>();
            paths.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .forEach(p -> files.add(relativeName(root, p)));
            files.sort(null);
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
    }

    private static String relativeName(Path root, Path file) {
        var parts = new ArrayList<String>();
        for (Path part : root.relativize(file)) {
            parts.add(part.toString());
        }
        return String.join("/", parts);
    }
}
