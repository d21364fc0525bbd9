package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A custom backend written from scratch: one JSON Lines file per agent, named by the SHA-256 of its id,
 * one line per record — agent, version, checkpoint id, creation time, node, tombstone flag, metadata and
 * the stored document in base64; history segments are lines of the same shape under {@code segments/}.
 * Inserts append a line and force it to disk; deletions rewrite the file (temporary file, forced,
 * atomic move). Writers — threads, instances, processes — take the directory's {@code .lock} in turn;
 * readers take none and read complete lines only, and an append first cuts off a line torn by a crash.
 * A document over the maximum size is counted, never held. The storage shell does everything else.
 */
public final class JsonLinesStorageBackend implements StorageBackend {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, Object> WRITERS = new ConcurrentHashMap<>(); // per directory, in this JVM
    private final Path directory;
    private final Path segmentDirectory;
    private final ObjectReader reader;

    /** One line; {@code b} is null when the document is larger than the maximum size. */
    record Line(String a, long v, String id, String t, String n, boolean d, Map<String, String> m,
                @JsonDeserialize(using = Capped.class) byte[] b) {
    }

    /** A line read from a file, where it starts and where the next one starts. */
    private record Entry(Line line, long start, long end) {
        boolean matches(CheckpointFilter filter) {
            return new StoredCheckpoint(line.a, line.id, line.v, Instant.parse(line.t), null, line.n, line.d, line.m,
                    new byte[0]).matches(filter);
        }
    }

    public JsonLinesStorageBackend(Path directory) {
        this(directory, StorageSettings.ofDefaults().maxCheckpointSize());
    }

    /** Over {@code directory}, holding no document larger than {@code maxDocumentSize} in memory. */
    public JsonLinesStorageBackend(Path directory, long maxDocumentSize) {
        this.directory = directory.toAbsolutePath().normalize();
        this.segmentDirectory = this.directory.resolve("segments");
        this.reader = JSON.readerFor(Line.class).withAttribute(Capped.class, maxDocumentSize);
        io(() -> Files.createDirectories(segmentDirectory));
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        Path file = file(directory, r.agentId());
        return locked(() -> {
            List<StoredDocument> clash = read(file, Integer.MAX_VALUE).stream().filter(e -> e.line.v == r.version()
                    || e.line.id.equals(r.checkpointId())).map(e -> document(file, e)).toList();
            if (clash.isEmpty()) {
                write(file, List.of(), new Line(r.agentId(), r.version(), r.checkpointId(), r.createdAt().toString(),
                        r.nodeId(), r.tombstone(), r.metadata(), r.document()));
            }
            return clash.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash);
        });
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        Path file = file(directory, agentId);
        return read(file, Integer.MAX_VALUE).stream().filter(e -> e.line.id.equals(checkpointId)).findFirst()
                .map(e -> document(file, e));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        Path file = file(directory, agentId);
        List<Entry> matches = read(file, Integer.MAX_VALUE).stream().filter(e -> e.matches(filter))
                .sorted(Comparator.comparingLong(e -> e.line.v)).toList();
        int from = filter.limit() == null ? 0 : Math.max(0, matches.size() - filter.limit());
        return matches.subList(from, matches.size()).stream().map(e -> document(file, e)).toList();
    }

    @Override
    public int deleteAll(String agentId) {
        return keepOnly(file(directory, agentId), e -> false);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return keepOnly(file(directory, agentId), e -> e.line.v >= version);
    }

    @Override
    public List<String> listAgents() {
        return agents(directory);
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(new Segments());
    }

    @Override
    public void checkHealth() {
        io(() -> Files.readAttributes(segmentDirectory, "size")); // the directory is there and readable
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return file(directory, agentId) + ", record '" + checkpointId + "'";
    }

    @Override
    public String toString() {
        return "JSON Lines in " + directory;
    }

    /** History segments: lines with the segment id as id and the last write time as time. */
    private final class Segments implements HistorySegmentStore {
        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            Path file = file(segmentDirectory, agentId);
            locked(() -> {
                List<Entry> all = read(file, Integer.MAX_VALUE);
                var old = all.stream().filter(e -> e.line.id.equals(segmentId)).findFirst();
                return write(file, all.stream().filter(e -> old.isEmpty() || e != old.get()).toList(), new Line(agentId,
                        0, segmentId, Instant.now().toString(), null, false, Map.of(), old.map(e -> e.line.b).orElse(content)));
            });
        }

        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            Path file = file(segmentDirectory, agentId);
            return read(file, Integer.MAX_VALUE).stream().filter(e -> segmentIds.contains(e.line.id))
                    .collect(Collectors.toMap(e -> e.line.id, e -> document(file, e).document(), (x, y) -> x));
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return read(file(segmentDirectory, agentId), Integer.MAX_VALUE).stream()
                    .map(e -> new SegmentInfo(e.line.id, Instant.parse(e.line.t)))
                    .sorted(Comparator.comparing(SegmentInfo::segmentId)).toList();
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return keepOnly(file(segmentDirectory, agentId), e -> !segmentIds.contains(e.line.id)
                    || !Instant.parse(e.line.t).isBefore(writtenBefore));
        }

        @Override
        public List<String> listSegmentAgents() {
            return agents(segmentDirectory);
        }
    }

    /** The document of a record, or the error for one over the maximum size. */
    private static StoredDocument document(Path file, Entry e) {
        if (e.line.b == null) {
            throw new CorruptCheckpointException(e.line.a, e.line.id, file + ", record '" + e.line.id + "'",
                    "the stored document is larger than the maximum checkpoint size", null);
        }
        return new StoredDocument(e.line.a, e.line.id, e.line.v, e.line.b);
    }

    /** Up to {@code limit} records of the file, in file order; only lines whose newline is there. */
    private List<Entry> read(Path file, int limit) {
        return io(() -> {
            var entries = new ArrayList<Entry>();
            try (var channel = FileChannel.open(file); var p = reader.createParser(Channels.newInputStream(channel))) {
                long complete = complete(channel);
                while (entries.size() < limit && p.nextToken() == JsonToken.START_OBJECT
                        && p.currentTokenLocation().getByteOffset() < complete) {
                    long start = p.currentTokenLocation().getByteOffset();
                    entries.add(new Entry(reader.readValue(p), start, p.currentLocation().getByteOffset() + 1));
                }
            } catch (NoSuchFileException e) {
                return List.<Entry>of();
            }
            return entries;
        });
    }

    /** Rewrites the file keeping the records {@code kept} accepts; returns how many went. */
    private int keepOnly(Path file, Predicate<Entry> kept) {
        return locked(() -> {
            List<Entry> all = read(file, Integer.MAX_VALUE);
            List<Entry> rest = all.stream().filter(kept).toList();
            if (rest.size() < all.size()) {
                write(file, rest, null);
            }
            return all.size() - rest.size();
        });
    }

    /**
     * Appends {@code added} to the file when {@code kept} is empty; otherwise replaces the file by its
     * {@code kept} lines (copied as they are) and {@code added}, if any. A file left empty is removed.
     */
    private Void write(Path file, List<Entry> kept, Line added) throws IOException {
        boolean append = kept.isEmpty() && added != null;
        Path target = append ? file : Files.createTempFile(file.getParent(), ".rewrite", ".tmp");
        try (var out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.position(out.truncate(complete(out)).size()); // cuts off a line torn by a crash
            try (var in = append ? null : FileChannel.open(file)) {
                for (Entry e : kept) {
                    for (long at = e.start; at < e.end; at += in.transferTo(at, e.end - at, out)) {
                        // copies the line as it is: its document is never held in memory
                    }
                }
            }
            if (added != null) {
                out.write(new ByteBuffer[] {ByteBuffer.wrap(JSON.writeValueAsBytes(added)), ByteBuffer.wrap(new byte[] {'\n'})});
            }
            out.force(false);
        }
        if (!append && kept.isEmpty() && added == null) {
            Files.delete(target);
            Files.deleteIfExists(file);
        } else if (!append) {
            Files.move(target, file, StandardCopyOption.ATOMIC_MOVE);
        }
        return null;
    }
}
