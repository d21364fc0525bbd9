package dev.agentpersistence.file.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.SegmentInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records as files: one directory per agent under a root, one file per checkpoint named by its
 * zero-padded version, an id index of hard links, a head file per agent and a segment directory.
 * Ids are encoded, so any valid id is safe. Saves are crash-safe and durable when they return
 * ({@link CheckpointWriter}); several backends — in this process or others — may share one root.
 *
 * <p>Node ids, times, metadata and tombstones live only inside the documents, so this backend
 * filters on versions alone ({@link #filtersAttributes()} is {@code false}) and the shell filters
 * the rest from {@link #candidates}, which reads candidates newest first and stops with the shell.
 */
public final class FileStorageBackend implements StorageBackend {
    private final Path root;
    private final CheckpointReader reader;
    private final CheckpointWriter writer;
    private final CheckpointQuery query;
    private final CheckpointDeleter deleter;
    private final AgentLister lister;
    private final Segments segments;

    /**
     * Opens the storage under {@code root}, creating it when missing and, with {@code cleanUpOnOpen},
     * removing temporary files older than {@code gracePeriod}.
     *
     * @throws dev.agentpersistence.StorageConfigurationException when the root is not a directory this
     *         process can create, read and write (see {@link RootDirectory})
     * @throws dev.agentpersistence.StorageUnavailableException on other I/O errors
     * @param maxDocumentSize the largest file read as a checkpoint
     * @param skipCorruptAgents whether listing agents leaves out directories whose agent id file is unreadable
     */
    public FileStorageBackend(Path root, Fsync fsync, Clock clock, Duration gracePeriod, boolean cleanUpOnOpen,
                              long maxDocumentSize, boolean skipCorruptAgents) {
        this.root = root.toAbsolutePath().normalize();
        var files = new DurableFiles(fsync);
        var layout = new FileLayout(this.root, files);
        Path realRoot = RootDirectory.open(layout, files);
        this.reader = new CheckpointReader(maxDocumentSize);
        var head = new AgentHead(layout, files, clock, gracePeriod, realRoot);
        this.writer = new CheckpointWriter(layout, files, reader, clock, gracePeriod, head);
        this.query = new CheckpointQuery(layout, files, reader, head);
        this.deleter = new CheckpointDeleter(layout, files, reader, head);
        this.lister = new AgentLister(layout, skipCorruptAgents);
        this.segments = new Segments(new SegmentFiles(layout, files, clock));
        if (cleanUpOnOpen) {
            new StaleFileSweeper(layout, files, clock, gracePeriod, head).sweep();
        }
    }

    @Override
    public void useDocumentIdentity(DocumentIdentity identity) {
        reader.useIdentity(identity);
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return writer.save(record);
    }

    /** Reads the id entry directly; an entry whose save has not completed is not visible. */
    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return query.byId(agentId, checkpointId);
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        requireVersionsOnly(filter);
        return query.latest(agentId, filter.maxVersion());
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        requireVersionsOnly(filter);
        return query.find(agentId, filter.maxVersion(), filter.limit() == null ? Integer.MAX_VALUE : filter.limit());
    }

    @Override
    public boolean filtersAttributes() {
        return false;
    }

    /** Every checkpoint up to the filter's {@code maxVersion}: the other fields are inside the documents. */
    @Override
    public Iterator<StoredDocument> candidates(String agentId, CheckpointFilter filter) {
        return query.newestFirst(agentId, filter.maxVersion());
    }

    @Override
    public int deleteAll(String agentId) {
        return deleter.delete(agentId, version -> true);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return deleter.delete(agentId, stored -> stored < version);
    }

    @Override
    public List<String> listAgents() {
        return lister.list();
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    /** The root is a readable, writable directory. */
    @Override
    public void checkHealth() {
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            throw IoFailures.unavailable("use the root directory", root,
                    new IOException("not a writable directory: " + root));
        }
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return "file of checkpoint '" + checkpointId + "' of agent '" + agentId + "' under " + root;
    }

    /** Holds no open files between calls. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return root.toString();
    }

    private static void requireVersionsOnly(CheckpointFilter filter) {
        if (filter.nodeId() != null || filter.createdAfter() != null || filter.createdBefore() != null
                || !filter.metadata().isEmpty() || !filter.includeTombstones()) {
            throw new IllegalArgumentException("the file backend filters versions only; the shell filters the rest");
        }
    }

    /** The segment directories ({@code <agent>/.segments/}) as the backend's segment area. */
    private final class Segments implements HistorySegmentStore {
        private final SegmentFiles files;

        Segments(SegmentFiles files) {
            this.files = files;
        }

        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            files.put(agentId, segmentId, content);
        }

        /** Reads one file per segment. */
        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            return files.get(agentId, segmentIds);
        }

        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            return files.list(agentId);
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            return files.delete(agentId, segmentIds, writtenBefore);
        }

        @Override
        public List<String> listSegmentAgents() {
            return lister.list(files::hasSegments);
        }
    }
}
