package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
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
import java.util.function.Predicate;

/**
 * The JSON Lines files of {@link JsonLinesStorageBackend}: one per agent, named by the SHA-256 of its id.
 * Readers take no lock and read complete lines only (after the last newline, a line is being appended or
 * was torn by a crash) and hold no document larger than the maximum size. An append first cuts off a
 * torn line, then writes its line and forces it to disk; a rewrite writes a temporary file, forces it and
 * moves it over the old one. Writers hold the directory's lock: a monitor in this JVM, a file lock across
 * processes.
 */
final class JsonLinesFiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The directory of the agents' files, and its subdirectory of their segment files. */
    final Path directory;
    final Path segments;
    private final ObjectReader reader;

    /** A line: {@code {"a":agent,"v":version,"id":…,"t":time,"n":node,"d":tombstone,"m":{…},"b":base64}}. */
    record Line(String a, long v, String id, String t, String n, boolean d, Map<String, String> m,
                @JsonDeserialize(using = Capped.class) byte[] b) {
        static Line of(StoredCheckpoint r) {
            return new Line(r.agentId(), r.version(), r.checkpointId(), r.createdAt().toString(), r.nodeId(),
                    r.tombstone(), r.metadata(), r.document());
        }

        /** The record's attributes, for filters (without its document). */
        StoredCheckpoint attributes() {
            return new StoredCheckpoint(a, id, v, Instant.parse(t), null, n, d, m, new byte[0]);
        }

        /** The stored document; a {@link CorruptCheckpointException} when it is over the maximum size. */
        StoredDocument document(Path file) {
            if (b == null) {
                throw new CorruptCheckpointException(a, id, file + ", record '" + id + "'",
                        "the stored document is larger than the maximum checkpoint size; it was not read", null);
            }
            return new StoredDocument(a, id, v, b);
        }
    }

    /** The files in {@code directory} and its {@code segments/}, holding no document over {@code maxDocumentSize} bytes. */
    JsonLinesFiles(Path directory, long maxDocumentSize) {
        this.directory = io(() -> Files.createDirectories(directory.toAbsolutePath().normalize()));
        this.segments = io(() -> Files.createDirectories(this.directory.resolve("segments")));
        this.reader = JSON.readerFor(Line.class).withAttribute(Capped.class, maxDocumentSize);
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

    /** The lines of the file in file order; none when there is no file. */
    List<Line> read(Path file) {
        return io(() -> {
            var lines = new ArrayList<Line>();
            try (var channel = FileChannel.open(file); var parser = reader.createParser(Channels.newInputStream(channel))) {
                long complete = complete(channel);
                while (parser.nextToken() == JsonToken.START_OBJECT && parser.currentTokenLocation().getByteOffset() < complete) {
                    lines.add(reader.readValue(parser));
                }
            } catch (NoSuchFileException e) {
                return List.<Line>of();
            }
            return lines;
        });
    }

    /** The agents with a file in {@code subdirectory}, each read from its file's first line, sorted. */
    List<String> agents(Path subdirectory) {
        return io(() -> {
            try (var files = Files.list(subdirectory)) {
                return files.filter(f -> f.toString().endsWith(".jsonl")).flatMap(f -> read(f).stream().limit(1))
                        .map(Line::a).sorted().toList();
            }
        });
    }

    /** Appends the line and forces it to disk. */
    void append(Path file, Line line) throws IOException {
        try (var out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            out.position(out.truncate(complete(out)).size());
            out.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
            out.force(false);
        }
    }

    /** Replaces the file's lines; none removes the file. */
    void rewrite(Path file, List<Line> lines) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), ".rewrite", ".tmp");
        try (var out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            for (Line line : lines) {
                line.document(file); // a document that was not read is never dropped: the rewrite stops here
                out.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
            }
            out.force(false);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        if (lines.isEmpty()) {
            Files.delete(file);
        }
    }

    /** Rewrites the file without the lines {@code removed} accepts, holding the lock; returns how many went. */
    int removeIf(Path file, Predicate<Line> removed) {
        return locked(() -> {
            List<Line> all = read(file);
            List<Line> kept = all.stream().filter(removed.negate()).toList();
            if (kept.size() < all.size()) {
                rewrite(file, kept);
            }
            return all.size() - kept.size();
        });
    }

    /**
     * Runs {@code action} holding the directory's lock file: other processes wait in {@code lock()},
     * other instances in this JVM (whose overlapping lock the JVM refuses) retry every millisecond.
     */
    <T> T locked(Io<T> action) {
        return io(() -> {
            try (var channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                java.nio.channels.FileLock lock = null;
                while (lock == null) {
                    try {
                        lock = channel.lock();
                    } catch (java.nio.channels.OverlappingFileLockException e) {
                        pause(); // another instance in this JVM holds it
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

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageUnavailableException("interrupted while waiting for the JSON Lines lock", e);
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

    /** The length of the file's complete lines: up to and including its last newline. */
    private static long complete(FileChannel channel) throws IOException {
        var buffer = ByteBuffer.allocate(8192);
        for (long end = channel.size(), start; end > 0; end = start) {
            start = Math.max(0, end - buffer.capacity());
            buffer.clear().limit((int) (end - start));
            while (buffer.hasRemaining() && channel.read(buffer, start + buffer.position()) > 0) {
                // fills the buffer
            }
            for (int i = buffer.position() - 1; i >= 0; i--) {
                if (buffer.get(i) == '\n') {
                    return start + i + 1;
                }
            }
        }
        return 0;
    }

    /** Decodes a document from base64 holding at most the maximum size: {@code null} when it is larger. */
    static final class Capped extends JsonDeserializer<byte[]> {
        @Override
        public byte[] deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            long max = (Long) context.getAttribute(Capped.class);
            var kept = new ByteArrayOutputStream() {
                long seen;

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    seen += length;
                    if (seen <= max) {
                        super.write(bytes, offset, length);
                    }
                }
            };
            parser.readBinaryValue(kept);
            return kept.seen > max ? null : kept.toByteArray();
        }
    }
}
