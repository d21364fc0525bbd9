package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.spi.HistorySegmentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A custom backend written from scratch: one JSON Lines file per agent in a directory, each line one
 * record (its filter attributes and the stored document in base64), appended and forced to disk.
 * Everything else — ids, the stored form, conflicts, history, retention, typed errors — is the
 * storage shell's. Instances and processes sharing the directory take its lock to write.
 */
public final class JsonLinesStorageBackend implements StorageBackend {
    private final Path directory;
    private final JsonLinesFiles files;
    private final JsonLinesSegments segments;

    public JsonLinesStorageBackend(Path directory) {
        this.directory = directory;
        this.files = new JsonLinesFiles(directory);
        this.segments = new JsonLinesSegments(new JsonLinesFiles(directory.resolve("segments")));
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        return files.locked(() -> {
            List<StoredDocument> clash = read(r.agentId()).stream().filter(s -> s.version() == r.version()
                    || s.checkpointId().equals(r.checkpointId())).map(StoredCheckpoint::toDocument).toList();
            if (!clash.isEmpty()) {
                return InsertResult.clashedWith(clash);
            }
            files.append(files.file(r.agentId()), JsonLinesLine.of(r));
            return InsertResult.stored();
        });
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return read(agentId).stream().filter(r -> r.checkpointId().equals(checkpointId)).findFirst()
                .map(StoredCheckpoint::toDocument);
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        List<StoredDocument> matches = read(agentId).stream().filter(r -> r.matches(filter))
                .sorted(Comparator.comparingLong(StoredCheckpoint::version)).map(StoredCheckpoint::toDocument).toList();
        int limit = filter.limit() == null ? matches.size() : Math.min(filter.limit(), matches.size());
        return matches.subList(matches.size() - limit, matches.size());
    }

    @Override
    public int deleteAll(String agentId) {
        return keepOnly(agentId, r -> false);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return keepOnly(agentId, r -> r.version() >= version);
    }

    @Override
    public List<String> listAgents() {
        return files.files().stream().flatMap(f -> files.read(f, JsonLinesLine.class).stream().limit(1))
                .map(JsonLinesLine::a).sorted().toList();
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    @Override
    public void checkHealth() {
        Io.run(() -> Files.getLastModifiedTime(directory)); // the directory is there and readable
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return files.file(agentId) + ", record '" + checkpointId + "'";
    }

    @Override
    public String toString() {
        return "JSON Lines in " + directory;
    }

    private List<StoredCheckpoint> read(String agentId) {
        return files.read(files.file(agentId), JsonLinesLine.class).stream().map(JsonLinesLine::record).toList();
    }

    /** Rewrites the agent's file keeping the records {@code kept} accepts; returns how many went. */
    private int keepOnly(String agentId, Predicate<StoredCheckpoint> kept) {
        return files.locked(() -> {
            List<StoredCheckpoint> all = read(agentId);
            List<StoredCheckpoint> rest = all.stream().filter(kept).toList();
            if (rest.size() < all.size()) {
                files.rewrite(files.file(agentId), rest.stream().map(JsonLinesLine::of).toList());
            }
            return all.size() - rest.size();
        });
    }
}
