package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The JSON Lines files of {@link JsonLinesStorageBackend}: one per agent, named by the SHA-256 of its id.
 * Readers take no lock and read complete lines only (after the last newline a line is being appended, or
 * was torn by a crash); an append first cuts off a torn line, then writes and forces its own; a rewrite
 * writes a temporary file, forces it and moves it over the old one. Writers take the directory's lock.
 */
final class JsonLinesFiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, Object> MONITORS = new ConcurrentHashMap<>(); // one writer per directory in this JVM

    private JsonLinesFiles() {
    }

    /** A line: {@code {"a":agent,"v":version,"id":…,"t":time,"n":node,"d":tombstone,"m":{…},"b":base64}}. */
    record Line(String a, long v, String id, String t, String n, boolean d, Map<String, String> m, byte[] b) {
        static Line of(StoredCheckpoint r) {
            return new Line(r.agentId(), r.version(), r.checkpointId(), r.createdAt().toString(), r.nodeId(),
                    r.tombstone(), r.metadata(), r.document());
        }

        StoredCheckpoint record() {
            return new StoredCheckpoint(a, id, v, Instant.parse(t), null, n, d, m, b);
        }
    }

    /** A file operation; its {@link IOException} becomes a {@link StorageUnavailableException}. */
    interface Io<T> {
        T run() throws IOException;
    }

    static <T> T io(Io<T> action) {
        try {
            return action.run();
        } catch (IOException e) {
            throw new StorageUnavailableException("JSON Lines storage failed: " + e, e);
        }
    }

    /** The file of an agent in {@code directory}: any id makes a safe file name. */
    static Path file(Path directory, String agentId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(agentId.getBytes(StandardCharsets.UTF_8));
            return directory.resolve(HexFormat.of().formatHex(digest) + ".jsonl");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The lines of the file, in file order; none when there is no file. */
    static List<Line> read(Path file) {
        return io(() -> {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                return List.of();
            }
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            var lines = new ArrayList<Line>();
            for (String text : new String(bytes, 0, end, StandardCharsets.UTF_8).lines().toList()) {
                lines.add(JSON.readValue(text, Line.class));
            }
            return lines;
        });
    }

    /** The agents with a file in {@code directory}, each read from its file's first line, sorted. */
    static List<String> agents(Path directory) {
        return io(() -> {
            try (var files = Files.list(directory)) {
                return files.filter(f -> f.toString().endsWith(".jsonl")).flatMap(f -> read(f).stream().limit(1))
                        .map(Line::a).sorted().toList();
            }
        });
    }

    /** Appends the line and forces it to disk. */
    static void append(Path file, Line line) throws IOException {
        try (var out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            var last = ByteBuffer.allocate(1);
            long end = out.size();
            while (end > 0 && out.read(last.clear(), end - 1) == 1 && last.get(0) != '\n') {
                end--;
            }
            out.truncate(end).position(end);
            out.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
            out.force(false);
        }
    }

    /** Replaces the file's lines; none removes the file. */
    static void rewrite(Path file, List<Line> lines) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), ".rewrite", ".tmp");
        try (var out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            for (Line line : lines) {
                out.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
            }
            out.force(false);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        if (lines.isEmpty()) {
            Files.delete(file);
        }
    }

    /** Rewrites the file without the lines {@code removed} accepts, holding the lock of {@code directory}; returns how many went. */
    static int removeIf(Path directory, Path file, Predicate<Line> removed) {
        return locked(directory, () -> {
            List<Line> all = read(file);
            List<Line> kept = all.stream().filter(removed.negate()).toList();
            if (kept.size() < all.size()) {
                rewrite(file, kept);
            }
            return all.size() - kept.size();
        });
    }

    /** Runs {@code action} holding the directory's lock: a monitor in this JVM, the {@code .lock} file across processes. */
    @SuppressWarnings("try") // the lock is held, not used
    static <T> T locked(Path directory, Io<T> action) {
        synchronized (MONITORS.computeIfAbsent(directory, d -> new Object())) {
            return io(() -> {
                try (var channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE); var lock = channel.lock()) {
                    return action.run();
                }
            });
        }
    }
}
