package dev.agentpersistence.examples.jsonl;

import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.agents;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.append;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.file;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.io;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.locked;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.read;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.removeIf;
import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.rewrite;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.examples.jsonl.JsonLinesFiles.Line;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.SegmentInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A custom backend written from scratch: in a directory, one JSON Lines file per agent with a line per
 * record (its filter attributes and the stored document in base64, see {@link JsonLinesFiles}); history
 * segments as such lines under {@code segments/}. Inserts append under the directory's lock, deletions
 * rewrite the file, queries read it. The storage shell does the rest: ids, the stored form, conflicts,
 * incremental history, retention and typed errors.
 */
public final class JsonLinesStorageBackend implements StorageBackend {
    private final Path directory;
    private final Path segmentDirectory;

    public JsonLinesStorageBackend(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
        this.segmentDirectory = io(() -> Files.createDirectories(this.directory.resolve("segments")));
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        Path file = file(directory, r.agentId());
        return locked(directory, () -> {
            List<StoredDocument> clash = read(file).stream().filter(l -> l.v() == r.version()
                    || l.id().equals(r.checkpointId())).map(l -> l.record().toDocument()).toList();
            if (clash.isEmpty()) {
                append(file, Line.of(r));
            }
            return clash.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash);
        });
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return read(file(directory, agentId)).stream().filter(l -> l.id().equals(checkpointId)).findFirst()
                .map(l -> l.record().toDocument());
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        List<StoredDocument> found = read(file(directory, agentId)).stream().map(Line::record)
                .filter(r -> r.matches(filter)).sorted(Comparator.comparingLong(StoredCheckpoint::version))
                .map(StoredCheckpoint::toDocument).toList();
        int limit = filter.limit() == null ? found.size() : Math.min(filter.limit(), found.size());
        return found.subList(found.size() - limit, found.size());
    }

    @Override
    public int deleteAll(String agentId) {
        return removeIf(directory, file(directory, agentId), l -> true);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return removeIf(directory, file(directory, agentId), l -> l.v() < version);
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

    /** History segments: a line per segment with its id, its last write time and its bytes. */
    private final class Segments implements HistorySegmentStore {
        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            Path file = file(segmentDirectory, agentId);
            locked(directory, () -> {
                List<Line> lines = read(file);
                var old = lines.stream().filter(l -> l.id().equals(segmentId)).findFirst();
                var line = new Line(agentId, 0, segmentId, Instant.now().toString(), null, false, Map.of(),
                        old.map(Line::b).orElse(content)); // a segment keeps its bytes, only its time is renewed
                if (old.isEmpty()) {
                    append(file, line);
                } else {
                    rewrite(file, lines.stream().map(l -> l == old.get() ? line : l).toList());
                }
                return null;
            });
        }

        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            return read(file(segmentDirectory, agentId)).stream().filter(l -> segmentIds.contains(l.id()))
                    .collect(Collectors.toMap(Line::id, Line::b));
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return read(file(segmentDirectory, agentId)).stream().map(l -> new SegmentInfo(l.id(), Instant.parse(l.t())))
                    .sorted(Comparator.comparing(SegmentInfo::segmentId)).toList();
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return removeIf(directory, file(segmentDirectory, agentId),
                    l -> segmentIds.contains(l.id()) && Instant.parse(l.t()).isBefore(writtenBefore));
        }

        @Override
        public List<String> listSegmentAgents() {
            return agents(segmentDirectory);
        }
    }
}
