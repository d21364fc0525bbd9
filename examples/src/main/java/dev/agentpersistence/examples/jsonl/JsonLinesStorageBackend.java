package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.AgentRecordsBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.storage.StorageSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * A custom backend written from scratch: per agent a JSON Lines file of the {@link StoredCheckpoint}s the shell hands
 * over, and one in {@code segments/} of its history segments. {@link AgentRecordsBackend} runs every operation on
 * reading and replacing such files, in its format; the shell does the rest (ids, stored form, conflicts, history).
 */
public final class JsonLinesStorageBackend extends AgentRecordsBackend {
    private final Path directory;
    private final Path segments;

    /** Over {@code directory}, with the default maximum checkpoint size. */
    public JsonLinesStorageBackend(Path directory) {
        this(directory, StorageSettings.ofDefaults().maxCheckpointSize());
    }

    /** Over {@code directory}; no read holds a stored document larger than {@code maxCheckpointSize} bytes. */
    public JsonLinesStorageBackend(Path directory, long maxCheckpointSize) {
        super(Clock.systemUTC(), maxCheckpointSize); // the clock dates segment writes
        this.directory =
                io(() -> Files.createDirectories(directory.toAbsolutePath().normalize()));
        this.segments = io(() -> Files.createDirectories(this.directory.resolve("segments")));
    }

    /** The records of the agent's file, always whole: a file is only ever replaced by a complete one. */
    @Override
    protected List<StoredCheckpoint> read(Area area, String agentId) {
        return read(file(area, agentId));
    }

    /**
     * Holding the lock file (other processes wait, other instances in this JVM retry every millisecond), writes what
     * {@code change} makes of the records to a temporary file, forces it to disk and moves it over the old one; no
     * records remove the file. A record that was not read whole stops the write: it is never dropped.
     */
    @Override
    protected int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
        Path file = file(area, agentId);
        return io(() -> {
            try (var lockFile =
                    FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lock(lockFile); // released when the lock file's channel closes
                List<StoredCheckpoint> before = read(file);
                List<StoredCheckpoint> after = change.apply(before);
                if (after.isEmpty()) {
                    Files.deleteIfExists(file);
                } else if (!after.equals(before)) {
                    Path temporary = Files.createTempFile(file.getParent(), ".rewrite", ".tmp");
                    try (var out = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                        out.write(ByteBuffer.wrap(encode(area, after)));
                        out.force(false);
                        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
                    } finally {
                        Files.deleteIfExists(temporary); // left only when the move did not happen
                    }
                }
                return before.size() - after.size();
            }
        });
    }

    /** The agents with a file in the area's directory, each read from its file's first line. */
    @Override
    protected List<String> agents(Area area) {
        return io(() -> {
            try (var files = Files.list(area == Area.CHECKPOINTS ? directory : segments)) {
                return files.filter(f -> f.toString().endsWith(".jsonl"))
                        .flatMap(f -> read(f).stream().limit(1))
                        .map(StoredCheckpoint::agentId)
                        .toList();
            }
        });
    }

    @Override
    protected String location(Area area, String agentId, String id) {
        return file(area, agentId) + ", record '" + id + "'";
    }

    @Override
    public void checkHealth() {
        io(() -> Files.readAttributes(segments, "size")); // the directories are there, readable
    }

    @Override
    public String toString() {
        return "JSON Lines in " + directory;
    }

    /** The file of an agent in {@code directory}, named by the SHA-256 of its id: a safe name for any id. */
    static Path file(Path directory, String agentId) {
        byte[] hash = io(() -> MessageDigest.getInstance("SHA-256")).digest(agentId.getBytes(StandardCharsets.UTF_8));
        return directory.resolve(HexFormat.of().formatHex(hash) + ".jsonl");
    }

    private Path file(Area area, String agentId) {
        return file(area == Area.CHECKPOINTS ? directory : segments, agentId);
    }

    private List<StoredCheckpoint> read(Path file) {
        return io(() -> {
            try (var in = Files.newInputStream(file)) {
                return decode(in);
            } catch (NoSuchFileException e) {
                return List.of(); // no file yet: no records
            }
        });
    }

    private static FileLock lock(FileChannel lockFile) throws IOException {
        while (true) {
            try {
                return lockFile.lock();
            } catch (OverlappingFileLockException e) { // the JVM refuses a lock overlapping one it holds
                LockSupport.parkNanos(1_000_000);
            }
        }
    }

    /** Runs a file operation; its {@link IOException} (any checked exception) becomes a StorageUnavailableException. */
    private static <T> T io(Callable<T> action) {
        try {
            return action.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageUnavailableException("JSON Lines storage failed: " + e, e);
        }
    }
}
