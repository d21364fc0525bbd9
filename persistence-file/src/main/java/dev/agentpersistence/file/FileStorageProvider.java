package dev.agentpersistence.file;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.file.internal.AgentHead;
import dev.agentpersistence.file.internal.AgentLister;
import dev.agentpersistence.file.internal.CheckpointDeleter;
import dev.agentpersistence.file.internal.CheckpointQuery;
import dev.agentpersistence.file.internal.CheckpointReader;
import dev.agentpersistence.file.internal.CheckpointWriter;
import dev.agentpersistence.file.internal.DurableFiles;
import dev.agentpersistence.file.internal.FileLayout;
import dev.agentpersistence.file.internal.Fsync;
import dev.agentpersistence.file.internal.IoFailures;
import dev.agentpersistence.file.internal.SegmentFiles;
import dev.agentpersistence.file.internal.StaleFileSweeper;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.spi.StorageChecks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Stores checkpoints as files: one directory per agent under a root, one file per checkpoint named
 * by its zero-padded version, plus an id index of hard links. Ids are encoded, so any valid id is
 * safe. Saves are crash-safe and durable when they return; several providers — in this process or
 * others — may share one root. See the module README for the layout and guarantees.
 *
 * <p>The latest checkpoint is found through a small head file per agent, without listing the
 * directory (which it falls back to whenever the head cannot be trusted); versions,
 * {@code maxVersion} and {@code limit} are answered from the sorted directory listing. {@code createdAt}, {@code nodeId}, metadata and tombstone filters are
 * inside the documents: candidates are read newest first and reading stops once {@code limit}
 * matches are found. Thread-safe.
 *
 * <p>Also a {@link HistorySegmentStore} ({@code <agent>/.segments/}, written like checkpoints):
 * {@link #withIncrementalHistory()} (and {@code PersistenceStorageProviders.load}) keep long message
 * histories once instead of in every checkpoint.
 */
public final class FileStorageProvider implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    private final FileStorageConfig config;
    private final String name;
    private final CheckpointWriter writer;
    private final CheckpointQuery query;
    private final CheckpointDeleter deleter;
    private final AgentLister lister;
    private final SegmentFiles segments;
    private final AtomicBoolean closed = new AtomicBoolean();

    FileStorageProvider(FileStorageConfig config, Fsync fsync) {
        this.config = Objects.requireNonNull(config, "config");
        Path root = config.directory().toAbsolutePath().normalize();
        this.name = "FileStorageProvider(" + root + ")";
        var files = new DurableFiles(fsync);
        var layout = new FileLayout(root, files);
        var reader = new CheckpointReader(config.codec(), config.skipCorrupt());
        Path realRoot;
        try {
            layout.createRoot();
            realRoot = root.toRealPath();
        } catch (IOException e) {
            throw IoFailures.unavailable("create the root directory", root, e);
        }
        var head = new AgentHead(layout, files, config.clock(), config.tempFileGracePeriod(), realRoot);
        this.writer = new CheckpointWriter(layout, files, config.codec(), reader, config.clock(),
                config.tempFileGracePeriod(), head);
        this.query = new CheckpointQuery(layout, files, reader, head);
        this.deleter = new CheckpointDeleter(layout, files, reader, head);
        this.lister = new AgentLister(layout, config.skipCorrupt());
        this.segments = new SegmentFiles(layout, files, config.clock());
        if (config.cleanUpOnOpen()) {
            new StaleFileSweeper(layout, files, config.clock(), config.tempFileGracePeriod(), head).sweep();
        }
    }

    /**
     * Opens the storage under {@code config.directory()}, creating it when missing and removing
     * stale temporary files.
     *
     * @throws dev.agentpersistence.StorageUnavailableException when the directory cannot be created or read
     */
    public static FileStorageProvider of(FileStorageConfig config) {
        Objects.requireNonNull(config, "config");
        return new FileStorageProvider(config, config.fsync() ? Fsync.system() : Fsync.none());
    }

    /** Opens the storage under {@code directory} with default settings. */
    public static FileStorageProvider of(Path directory) {
        return of(FileStorageConfig.custom().directory(directory).build());
    }

    /** Opens the storage under {@link FileStorageConfig#DEFAULT_DIRECTORY}. */
    public static FileStorageProvider ofDefaults() {
        return of(FileStorageConfig.ofDefaults());
    }

    /** The settings this provider was opened with. */
    public FileStorageConfig config() {
        return config;
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        requireOpen();
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        writer.save(agentId, checkpoint);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return query.find(agentId, filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return getCheckpoints(agentId, null);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return query.latest(agentId, filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return getLatestCheckpoint(agentId, null);
    }

    /** Reads the id entry directly; an entry whose save has not completed is not visible. */
    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return query.byId(agentId, checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return deleter.delete(agentId, version -> true);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return deleter.delete(agentId, stored -> stored < version);
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        return lister.list();
    }

    /**
     * This provider with incremental message histories ({@link IncrementalHistoryStorageProvider}), as
     * {@code PersistenceStorageProviders.load} hands it out; segments are written with this provider's codec.
     */
    public IncrementalHistoryStorageProvider withIncrementalHistory() {
        return IncrementalHistoryStorageProvider.builder(this).segmentCodec(config.codec()).clock(config.clock()).build();
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        segments.put(agentId, segmentId, content);
    }

    /** Reads one file per segment. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        return segments.get(agentId, segmentIds);
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return segments.list(agentId);
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        return segments.delete(agentId, segmentIds, writtenBefore);
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen();
        return lister.list(segments::hasSegments);
    }

    /** Marks the provider closed; it holds no open files between calls. Idempotent. */
    @Override
    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return name;
    }

    private void requireOpen() {
        StorageChecks.requireOpen(closed.get(), name);
    }
}
