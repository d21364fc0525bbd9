package dev.agentpersistence.examples.jsonl;

import static dev.agentpersistence.examples.jsonl.JsonLinesFiles.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.examples.jsonl.JsonLinesFiles.Line;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.storage.StorageSettings;
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
 * A custom backend written from scratch: one JSON Lines file per agent, a line per record holding its
 * filter attributes and the stored document ({@link JsonLinesFiles}), and history segments as such lines
 * under {@code segments/}. Inserts append under the directory's lock, deletions rewrite the file, queries
 * read it. The storage shell does the rest: ids, stored form, conflicts, history, retention, typed errors.
 */
public final class JsonLinesStorageBackend implements StorageBackend {
    private final JsonLinesFiles files;

    /** Over {@code directory}, with the default maximum checkpoint size. */
    public JsonLinesStorageBackend(Path directory) {
        this(directory, StorageSettings.ofDefaults().maxCheckpointSize());
    }

    /** Over {@code directory}; no read holds a stored document larger than {@code maxCheckpointSize} bytes. */
    public JsonLinesStorageBackend(Path directory, long maxCheckpointSize) {
        this.files = new JsonLinesFiles(directory, maxCheckpointSize);
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        Path file = file(files.directory, r.agentId());
        return files.locked(() -> {
            List<StoredDocument> clash = files.read(file).stream().filter(l -> l.v() == r.version()
                    || l.id().equals(r.checkpointId())).map(l -> l.document(file)).toList();
            if (clash.isEmpty()) {
                files.append(file, Line.of(r));
            }
            return clash.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash);
        });
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        Path file = file(files.directory, agentId);
        return files.read(file).stream().filter(l -> l.id().equals(checkpointId)).findFirst().map(l -> l.document(file));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        Path file = file(files.directory, agentId);
        List<Line> found = files.read(file).stream().filter(l -> l.attributes().matches(filter))
                .sorted(Comparator.comparingLong(Line::v)).toList();
        int limit = filter.limit() == null ? found.size() : Math.min(filter.limit(), found.size());
        return found.subList(found.size() - limit, found.size()).stream().map(l -> l.document(file)).toList();
    }

    @Override
    public int deleteAll(String agentId) {
        return files.removeIf(file(files.directory, agentId), l -> true);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return files.removeIf(file(files.directory, agentId), l -> l.v() < version);
    }

    @Override
    public List<String> listAgents() {
        return files.agents(files.directory);
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(new Segments());
    }

    @Override
    public void checkHealth() {
        JsonLinesFiles.io(() -> Files.readAttributes(files.segments, "size")); // the directories are there, readable
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return file(files.directory, agentId) + ", record '" + checkpointId + "'";
    }

    @Override
    public String toString() {
        return "JSON Lines in " + files.directory;
    }

    /** History segments: a line per segment with its id, its last write time and its bytes. */
    private final class Segments implements HistorySegmentStore {
        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            Path file = file(files.segments, agentId);
            files.locked(() -> {
                List<Line> lines = files.read(file);
                var old = lines.stream().filter(l -> l.id().equals(segmentId)).findFirst();
                var line = new Line(agentId, 0, segmentId, Instant.now().toString(), null, false, Map.of(),
                        old.map(Line::b).orElse(content)); // a segment keeps its bytes, only its time is renewed
                if (old.isEmpty()) {
                    files.append(file, line);
                } else {
                    files.rewrite(file, lines.stream().map(l -> l == old.get() ? line : l).toList());
                }
                return null;
            });
        }

        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            Path file = file(files.segments, agentId);
            return files.read(file).stream().filter(l -> segmentIds.contains(l.id()))
                    .collect(Collectors.toMap(Line::id, l -> l.document(file).document()));
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return files.read(file(files.segments, agentId)).stream().map(l -> new SegmentInfo(l.id(), Instant.parse(l.t())))
                    .sorted(Comparator.comparing(SegmentInfo::segmentId)).toList();
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return files.removeIf(file(files.segments, agentId),
                    l -> segmentIds.contains(l.id()) && Instant.parse(l.t()).isBefore(writtenBefore));
        }

        @Override
        public List<String> listSegmentAgents() {
            return files.agents(files.segments);
        }
    }
}
