package dev.agentpersistence.file;

import dev.agentpersistence.file.internal.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Looks at what the provider left on disk. */
final class LayoutInspection {
    private LayoutInspection() {}

    static Path agentDirectory(Path root, String agentId) {
        return root.resolve(FileNames.encode(agentId));
    }

    /** The checkpoint ids that have an id entry (plain names only). */
    static List<String> idEntries(Path root, String agentId) {
        return names(agentDirectory(root, agentId).resolve(FileNames.IDS_DIRECTORY)).stream()
                .map(name -> FileNames.decode(name).orElse(name))
                .sorted()
                .toList();
    }

    /** The names of the files directly in {@code directory}, sorted. */
    static List<String> names(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under {@code root}. */
    static List<Path> tree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
