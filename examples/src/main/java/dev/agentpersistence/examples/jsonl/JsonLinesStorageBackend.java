package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.storage.StorageSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A custom backend written from scratch: per agent a JSON Lines file with a line per {@link StoredCheckpoint} the
 * shell hands over, and one in {@code segments/} with its history segments as such lines (checkpoint id: segment
 * id, creation time: last write). Readers take no lock and read complete lines only; writers take a lock file,
 * then append or rewrite. The storage shell does the rest: ids, stored form, conflicts, history, retention, errors.
 */
public final class JsonLinesStorageBackend implements StorageBackend, HistorySegmentStore {
    private static final byte[] NOT_READ = {}; // what a document over the maximum size is read as
    private final Path directory;
    private final Path segments;
    private final JsonMapper json;

    /** Over {@code directory}, with the default maximum checkpoint size. */
    public JsonLinesStorageBackend(Path directory) {
        this(directory, StorageSettings.ofDefaults().maxCheckpointSize());
    }

    /** Over {@code directory}; no read holds a stored document larger than {@code maxCheckpointSize} bytes. */
    public JsonLinesStorageBackend(Path directory, long maxCheckpointSize) {
        this.directory = io(() -> Files.createDirectories(directory.toAbsolutePath().normalize()));
        this.segments = io(() -> Files.createDirectories(this.directory.resolve("segments")));
        var capped = new JsonDeserializer<byte[]>() { // decodes base64, keeping at most the maximum size
            @Override
            public byte[] deserialize(JsonParser parser, DeserializationContext context) throws IOException {
                var kept = new ByteArrayOutputStream() {
                    @Override
                    public void write(byte[] bytes, int offset, int length) {
                        super.write(bytes, offset, count + length <= maxCheckpointSize ? length : 0);
                    }
                };
                return parser.readBinaryValue(kept) > maxCheckpointSize ? NOT_READ : kept.toByteArray();
            }
        };
        json = JsonMapper.builder().addModule(new JavaTimeModule()).addModule(new SimpleModule()
                .addDeserializer(byte[].class, capped)).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        Path file = file(directory, record.agentId());
        var clash = new ArrayList<StoredDocument>();
        update(file, all -> {
            all.stream().filter(r -> r.version() == record.version() || r.checkpointId().equals(record.checkpointId()))
                    .forEach(r -> clash.add(document(file, r)));
            return clash.isEmpty() ? Stream.concat(all.stream(), Stream.of(record)).toList() : all;
        });
        return clash.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash);
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String id) {
        Path file = file(directory, agentId);
        return read(file).stream().filter(r -> r.checkpointId().equals(id)).findFirst().map(r -> document(file, r));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        Path file = file(directory, agentId);
        List<StoredCheckpoint> found = read(file).stream().filter(r -> r.matches(filter))
                .sorted(Comparator.comparingLong(StoredCheckpoint::version)).toList();
        int from = filter.limit() == null ? 0 : Math.max(0, found.size() - filter.limit());
        return found.subList(from, found.size()).stream().map(r -> document(file, r)).toList();
    }

    @Override
    public int deleteAll(String agentId) {
        return update(file(directory, agentId), all -> List.of());
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return update(file(directory, agentId), all -> all.stream().filter(r -> r.version() >= version).toList());
    }

    @Override
    public List<String> listAgents() {
        return agents(directory);
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(this);
    }

    @Override
    public void checkHealth() {
        io(() -> Files.readAttributes(segments, "size")); // the directories are there, readable
    }

    @Override
    public String location(String agentId, String id) {
        return file(directory, agentId) + ", record '" + id + "'";
    }

    @Override
    public String toString() {
        return "JSON Lines in " + directory;
    }

    /** Stores a segment; one already stored keeps its bytes and gets a new write time. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        update(file(segments, agentId), all -> {
            var old = all.stream().filter(r -> r.checkpointId().equals(segmentId)).findFirst();
            var put = new StoredCheckpoint(agentId, segmentId, 0, Instant.now(), null, null, false, Map.of(),
                    old.map(StoredCheckpoint::document).orElse(content));
            return Stream.concat(all.stream().filter(r -> r != old.orElse(null)), Stream.of(put)).toList();
        });
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> ids) {
        Path file = file(segments, agentId);
        return read(file).stream().filter(r -> ids.contains(r.checkpointId()))
                .collect(Collectors.toMap(StoredCheckpoint::checkpointId, r -> document(file, r).document()));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        return read(file(segments, agentId)).stream().map(r -> new SegmentInfo(r.checkpointId(), r.createdAt()))
                .sorted(Comparator.comparing(SegmentInfo::segmentId)).toList();
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> ids, Instant writtenBefore) {
        return update(file(segments, agentId), all -> all.stream()
                .filter(r -> !ids.contains(r.checkpointId()) || !r.createdAt().isBefore(writtenBefore)).toList());
    }

    @Override
    public List<String> listSegmentAgents() {
        return agents(segments);
    }

    /** The file of an agent in {@code directory}, named by the SHA-256 of its id: a safe name for any id. */
    static Path file(Path directory, String agentId) {
        byte[] hash = io(() -> MessageDigest.getInstance("SHA-256")).digest(agentId.getBytes(StandardCharsets.UTF_8));
        return directory.resolve(HexFormat.of().formatHex(hash) + ".jsonl");
    }

    /** A record's document; a {@link CorruptCheckpointException} naming it when it was over the maximum size. */
    private static StoredDocument document(Path file, StoredCheckpoint r) {
        if (r.document() == NOT_READ) {
            throw new CorruptCheckpointException(r.agentId(), r.checkpointId(), file + ", record '" + r.checkpointId()
                    + "'", "the stored document is larger than the maximum checkpoint size; it was not read", null);
        }
        return r.toDocument();
    }

    /** The records of the file's complete lines: after the last newline, a line is being appended or was torn. */
    private List<StoredCheckpoint> read(Path file) {
        return io(() -> {
            var records = new ArrayList<StoredCheckpoint>();
            try (var channel = FileChannel.open(file);
                    var parser = json.createParser(Channels.newInputStream(channel))) {
                long end = complete(channel);
                while (parser.nextToken() != null && parser.currentTokenLocation().getByteOffset() < end) {
                    records.add(json.readValue(parser, StoredCheckpoint.class));
                }
            } catch (NoSuchFileException e) {
                // no file yet: no records
            }
            return records;
        });
    }

    /** The agents with a file in {@code subdirectory}, each read from its file's first line, sorted. */
    private List<String> agents(Path subdirectory) {
        return io(() -> {
            try (var files = Files.list(subdirectory)) {
                return files.filter(f -> f.toString().endsWith(".jsonl")).flatMap(f -> read(f).stream().limit(1))
                        .map(StoredCheckpoint::agentId).sorted().toList();
            }
        });
    }

    /**
     * Replaces the file's records with what {@code change} makes of them, holding the directory's lock; returns how
     * many went. Records added at the end are appended; any other change rewrites the file; none removes it.
     */
    @SuppressWarnings("try") // the lock is held, not used
    private int update(Path file, UnaryOperator<List<StoredCheckpoint>> change) {
        return io(() -> {
            try (var lockFile = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); var lock = lock(lockFile)) {
                List<StoredCheckpoint> before = read(file);
                List<StoredCheckpoint> after = change.apply(before);
                if (after.isEmpty() && !before.isEmpty()) {
                    Files.delete(file);
                } else if (after.size() > before.size() && after.subList(0, before.size()).equals(before)) {
                    write(file, after.subList(before.size(), after.size()), true);
                } else if (!after.equals(before)) {
                    write(file, after, false);
                }
                return before.size() - after.size();
            }
        });
    }

    /**
     * Writes lines and forces them to disk: appended after cutting off a line a crash left torn, or into a temporary
     * file moved over the old one. A document that was not read stops the write before it starts: it is never dropped.
     */
    private void write(Path file, List<StoredCheckpoint> records, boolean append) throws IOException {
        records.forEach(r -> document(file, r));
        Path target = append ? file : Files.createTempFile(file.getParent(), ".rewrite", ".tmp");
        try (var out = FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.CREATE)) {
            out.position(out.truncate(complete(out)).size());
            for (StoredCheckpoint r : records) {
                out.write(StandardCharsets.UTF_8.encode(json.writeValueAsString(r) + "\n"));
            }
            out.force(false);
        }
        if (!append) {
            Files.move(target, file, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Locks the lock file: other processes wait here, other instances in this JVM retry every millisecond. */
    private static FileLock lock(FileChannel lockFile) throws IOException {
        while (true) {
            try {
                return lockFile.lock();
            } catch (OverlappingFileLockException e) { // the JVM refuses a lock overlapping one it holds
                LockSupport.parkNanos(1_000_000);
            }
        }
    }

    /** The length of the file's complete lines: up to and including its last newline. */
    private static long complete(FileChannel channel) throws IOException {
        var buffer = ByteBuffer.allocate(8192);
        for (long end = channel.size(), start; end > 0; end = start) {
            start = Math.max(0, end - buffer.capacity());
            channel.read(buffer.clear().limit((int) (end - start)), start);
            for (int i = buffer.position() - 1; i >= 0; i--) {
                if (buffer.get(i) == '\n') {
                    return start + i + 1;
                }
            }
        }
        return 0;
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
