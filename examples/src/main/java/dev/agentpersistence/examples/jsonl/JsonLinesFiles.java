package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of the example backend: one JSON Lines file per agent, named by the SHA-256 of its id
 * (any id fits a file name), read whole, appended or rewritten (temporary file, forced, moved over
 * it). Writers of one directory — instances and processes — take its {@code .lock} file in turn.
 */
final class JsonLinesFiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path directory;

    JsonLinesFiles(Path directory) {
        this.directory = Io.run(() -> Files.createDirectories(directory));
    }

    Path file(String id) {
        try {
            return directory.resolve(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(id.getBytes(StandardCharsets.UTF_8))) + ".jsonl");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    <T> List<T> read(Path file, Class<T> type) {
        var lines = new ArrayList<T>();
        for (String text : Files.exists(file) ? Io.run(() -> Files.readAllLines(file)) : List.<String>of()) {
            lines.add(Io.run(() -> JSON.readValue(text, type)));
        }
        return lines;
    }

    /** Every agent file, in no order. */
    List<Path> files() {
        return Io.run(() -> {
            try (Stream<Path> files = Files.list(directory)) {
                return files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).toList();
            }
        });
    }

    void append(Path file, Object line) {
        write(file, List.of(line), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Replaces the file's lines; an empty list removes the file. */
    void rewrite(Path file, List<?> lines) {
        Path temp = Io.run(() -> Files.createTempFile(directory, ".rewrite", ".tmp"));
        write(temp, lines, StandardOpenOption.WRITE);
        Io.run(() -> lines.isEmpty() ? Files.deleteIfExists(file) && Files.deleteIfExists(temp)
                : Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE));
    }

    /** Runs {@code action} holding the directory's lock. */
    <T> T locked(Io.Action<T> action) {
        return Io.run(() -> {
            try (var channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                FileLock lock = null;
                while (lock == null) {
                    try {
                        lock = channel.lock();
                    } catch (OverlappingFileLockException e) {
                        Thread.onSpinWait(); // another instance in this JVM holds it
                    }
                }
                try {
                    return action.run();
                } finally {
                    lock.release();
                }
            }
        });
    }

    private static void write(Path file, List<?> lines, StandardOpenOption... options) {
        Io.run(() -> {
            try (var out = FileChannel.open(file, options)) {
                for (Object line : lines) {
                    out.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
                }
                out.force(false);
            }
            return null;
        });
    }
}
