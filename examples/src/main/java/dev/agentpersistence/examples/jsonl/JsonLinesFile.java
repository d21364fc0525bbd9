package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The file under a {@link JsonLinesStorageProvider}: a header line naming the format and a random
 * generation, then one line per record. Appends add lines; a rewrite (for deletions) writes a new
 * file with a new generation and renames it over the old one, so a reader either sees the old file
 * or the new one, and notices the new generation.
 *
 * <p>Every operation runs under an exclusive lock on {@code <file>.lock} ({@link #locked}), which
 * orders writers across threads, provider instances and processes. A line is only read once its
 * newline is there; a torn last line left by a crash is never read and is cut off by the next append.
 * Not thread-safe on its own: the provider calls it under its own lock.
 */
final class JsonLinesFile implements AutoCloseable {
    static final String FORMAT = "agent-persistence-jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HEADER_MAX_BYTES = 4096;

    private final Path file;
    private final boolean fsync;
    private final FileChannel lockChannel;
    private String generation;
    private long offset;
    private long lineNumber;

    /** What {@link #readNew()} found. */
    record Batch(boolean reset, List<Line> lines) {
    }

    /** One complete record line (without its newline) and its 1-based line number. */
    record Line(long number, byte[] bytes) {
    }

    /** Thrown by a body run under {@link #locked}. */
    @FunctionalInterface
    interface IoBody<T> {
        T run() throws IOException;
    }

    JsonLinesFile(Path file, boolean fsync) throws IOException {
        this.file = file;
        this.fsync = fsync;
        Files.createDirectories(file.getParent());
        this.lockChannel = FileChannel.open(file.resolveSibling(file.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    Path path() {
        return file;
    }

    /**
     * Runs {@code body} holding the file lock. Other instances in this JVM hold it through their own
     * channel, which the JDK reports as an overlap rather than blocking, so that case is retried.
     */
    <T> T locked(IoBody<T> body) throws IOException {
        FileLock lock = null;
        for (int wait = 1; lock == null; wait = Math.min(wait * 2, 16)) {
            try {
                lock = lockChannel.lock();
            } catch (OverlappingFileLockException e) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the lock of " + file, interrupted);
                }
            }
        }
        try {
            return body.run();
        } finally {
            lock.release();
        }
    }

    /**
     * The complete lines added since the last call. When the file was rewritten (new generation) or
     * is read for the first time, {@code reset} is true and the lines are all the file's records.
     */
    Batch readNew() throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            byte[] header = headerBytes(channel);
            String found = generation(header);
            boolean reset = !found.equals(generation);
            if (reset) {
                generation = found;
                offset = header.length + 1L;
                lineNumber = 1;
            }
            long size = channel.size();
            var lines = new ArrayList<Line>();
            if (size > offset) {
                ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(size - offset));
                while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) >= 0) {
                    // read until the buffer is full or the file ends
                }
                byte[] bytes = buffer.array();
                int start = 0;
                for (int i = 0; i < buffer.position(); i++) {
                    if (bytes[i] == '\n') {
                        lines.add(new Line(++lineNumber, Arrays.copyOfRange(bytes, start, i)));
                        start = i + 1;
                    }
                }
                offset += start;
            }
            return new Batch(reset, lines);
        } catch (NoSuchFileException e) {
            boolean reset = generation != null;
            generation = null;
            offset = 0;
            return new Batch(reset, List.of());
        }
    }

    /** Appends one record line; call {@link #readNew()} first under the same lock. */
    void append(byte[] record) throws IOException {
        if (generation == null) {
            rewrite(List.of());
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (channel.size() > offset) {
                channel.truncate(offset);
            }
            ByteBuffer buffer = ByteBuffer.allocate(record.length + 1).put(record).put((byte) '\n').flip();
            long position = offset;
            while (buffer.hasRemaining()) {
                position += channel.write(buffer, position);
            }
            if (fsync) {
                channel.force(false);
            }
            offset = position;
            lineNumber++;
        }
    }

    /** Replaces the file with a new generation holding {@code records}. */
    void rewrite(List<byte[]> records) throws IOException {
        String next = UUID.randomUUID().toString();
        var content = new ByteArrayOutputStream();
        byte[] header = JSON.writeValueAsBytes(JSON.createObjectNode().put("format", FORMAT).put("generation", next));
        content.write(header);
        content.write('\n');
        for (byte[] record : records) {
            content.write(record);
            content.write('\n');
        }
        Path temp = file.resolveSibling(file.getFileName() + "." + next + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content.toByteArray());
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                if (fsync) {
                    channel.force(true);
                }
            }
            try {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        if (fsync) {
            forceDirectory();
        }
        generation = next;
        offset = content.size();
        lineNumber = 1 + records.size();
    }

    @Override
    public void close() throws IOException {
        lockChannel.close();
    }

    private String generation(byte[] line) throws IOException {
        JsonNode header;
        try {
            header = JSON.readTree(line);
        } catch (IOException e) {
            throw new IOException(file + " does not start with a " + FORMAT + " header line", e);
        }
        if (header == null || !FORMAT.equals(header.path("format").asText()) || !header.path("generation").isTextual()) {
            throw new IOException(file + " does not start with a " + FORMAT + " header line");
        }
        return header.get("generation").asText();
    }

    private byte[] headerBytes(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(HEADER_MAX_BYTES, channel.size()));
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
            // read the start of the file
        }
        byte[] bytes = buffer.array();
        for (int i = 0; i < buffer.position(); i++) {
            if (bytes[i] == '\n') {
                return Arrays.copyOf(bytes, i);
            }
        }
        throw new IOException(file + " has no complete header line");
    }

    private void forceDirectory() {
        try (FileChannel directory = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory; the rename is then as durable as the OS makes it.
        }
    }
}
