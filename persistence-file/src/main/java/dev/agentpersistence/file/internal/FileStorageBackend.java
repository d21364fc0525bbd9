package dev.agentpersistence.file.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.BackendContext;
import dev.agentpersistence.backend.CandidateScan;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Records as files: one directory per agent under a root, holding either the agent's journal (all its checkpoints as
 * appended records, {@link AgentJournals}) or one file per checkpoint named by its zero-padded version with an id index
 * of hard links and a head file ({@link CheckpointWriter}); and a segment directory. New agents get the form the
 * backend was built to write; an agent keeps its form, and every backend reads both. Ids are encoded, so any valid id
 * is safe. Saves are crash-safe and durable when they return; several backends — in this process or others — may share
 * one root. An agent kept as a journal keeps its history segments there too, so that a save with new segments is one
 * append and one flush; other segments are files in the agent's segment directory, and every segment call looks in
 * both.
 *
 * <p>Node ids, times, metadata and tombstones live only inside the documents, so this backend filters on versions alone
 * and offers a {@link #candidateScan()}: the shell filters the rest from its candidates, read newest first, and stops
 * where it has enough.
 */
public final class FileStorageBackend implements StorageBackend {
    private final Path root;
    private final FileLayout layout;
    private final CheckpointReader reader;
    private final CheckpointWriter writer;
    private final CheckpointQuery query;
    private final CheckpointDeleter deleter;
    private final AgentLister lister;
    private final Segments segments;
    private final AgentJournals journals;
    private final boolean writeJournals;
    /** Agents found in the file-per-checkpoint form by a save here, so later saves go there at once. */
    private final Remembered<Path, Boolean> fileAgents = new Remembered<>();

    /**
     * Opens the storage under {@code root}, creating it when missing and, with {@code cleanUpOnOpen}, removing
     * temporary files older than {@code gracePeriod}; a read-only context creates and removes nothing, and a missing
     * root is a {@link dev.agentpersistence.StorageNotFoundException}.
     *
     * @throws dev.agentpersistence.StorageConfigurationException when the root is not a directory this process can
     *     create, read and write (see {@link RootDirectory})
     * @throws dev.agentpersistence.StorageUnavailableException on other I/O errors
     * @param writeJournals whether new agents are kept as a journal rather than one file per checkpoint
     * @param context the shell's clock (file ages), size limit (the largest file read as a checkpoint), skip-corrupt
     *     (reads leave out corrupt journal records and agent directories whose agent id file is unreadable, with a WARN
     *     line) and document identities (the id index)
     */
    public FileStorageBackend(
            Path root,
            Fsync fsync,
            Duration gracePeriod,
            boolean cleanUpOnOpen,
            boolean writeJournals,
            BackendContext context) {
        Clock clock = context.clock();
        long maxDocumentSize = context.maxCheckpointSize();
        boolean skipCorrupt = context.skipCorrupt();
        this.root = root.toAbsolutePath().normalize();
        var files = new DurableFiles(fsync);
        this.layout = new FileLayout(this.root, files);
        Path realRoot = context.readOnly() ? RootDirectory.openReadOnly(layout) : RootDirectory.open(layout, files);
        this.reader = new CheckpointReader(maxDocumentSize, context.identities());
        var head = new AgentHead(layout, files, clock, gracePeriod, realRoot);
        this.writer = new CheckpointWriter(layout, files, reader, clock, gracePeriod, head);
        this.query = new CheckpointQuery(layout, files, reader, head, context.readOnly());
        this.deleter = new CheckpointDeleter(layout, files, reader, head);
        this.lister = new AgentLister(layout, skipCorrupt);
        this.journals = new AgentJournals(layout, files, head, clock, maxDocumentSize, skipCorrupt);
        this.writeJournals = writeJournals;
        this.segments = new Segments(new SegmentFiles(layout, files, clock), journals);
        if (cleanUpOnOpen && !context.readOnly()) {
            new StaleFileSweeper(layout, files, clock, gracePeriod, head).sweep();
        }
    }

    /**
     * Appends to the agent's journal when it has one, or when this backend writes journals and the agent has no
     * checkpoint files; else saves a checkpoint file.
     */
    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return insert(record, Map.of());
    }

    /**
     * In a journal, the segments and the record in one append and one flush; else the segments as files, then the
     * record as {@link #insert(StoredCheckpoint)} saves it.
     */
    @Override
    public InsertResult insert(StoredCheckpoint record, Map<String, byte[]> segments) {
        return insert(record, segments, null);
    }

    /**
     * In a journal, the check of the head and the append under the agent's lock, as one step against every other save
     * and deletion. An agent kept as checkpoint files (a store written with journals off, or before them) is checked
     * with a read of its latest checkpoint, then saved: a deletion between the two goes unnoticed there.
     */
    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> segments) {
        return insert(record, segments, Objects.requireNonNull(expected, "expected"));
    }

    /** {@code expected}: {@code null} for a plain insert. */
    private InsertResult insert(
            StoredCheckpoint record, Map<String, byte[]> segments, Optional<ExpectedHead> expected) {
        AgentPaths paths = layout.agent(record.agentId());
        Map<String, byte[]> unwritten = segments;
        while (true) {
            boolean create = writeJournals && !fileAgents.contains(paths.directory());
            if (create || journals.exists(paths)) {
                Optional<InsertResult> appended = appendToJournal(record, unwritten, create, expected);
                if (appended.isPresent()) {
                    return appended.get();
                }
                if (create) {
                    fileAgents.put(paths.directory(), true);
                }
            }
            unwritten.forEach((id, content) -> this.segments.files.put(record.agentId(), id, content));
            unwritten = Map.of();
            if (expected != null && !ExpectedHead.holds(expected, latest(record.agentId(), CheckpointFilter.ALL))) {
                return InsertResult.headMoved();
            }
            Optional<InsertResult> saved = writer.save(record);
            if (saved.isPresent()) {
                return saved.get();
            }
            // the agent's first save made it a journal while this one was written as a file: append it there
        }
    }

    private Optional<InsertResult> appendToJournal(
            StoredCheckpoint record, Map<String, byte[]> segments, boolean create, Optional<ExpectedHead> expected) {
        String agentId = record.agentId();
        AgentJournals.SegmentFallback asFiles =
                fallback -> fallback.forEach((id, content) -> this.segments.files.put(agentId, id, content));
        for (int attempt = 1; ; attempt++) {
            try {
                if (attempt > 1) {
                    layout.forgetJournal(agentId);
                }
                return journals.insert(
                        layout.journalPreparedBefore(agentId), record, segments, create, asFiles, expected);
            } catch (NoSuchFileException e) {
                // the agent directory was removed under us (by hand, or by a clean-up); create it again
                if (attempt == 3) {
                    throw IoFailures.unavailable(
                            "save checkpoint in", layout.agent(agentId).directory(), e);
                }
            } catch (IOException e) {
                throw IoFailures.unavailable(
                        "save checkpoint in", layout.agent(agentId).directory(), e);
            }
        }
    }

    /** From the journal, or the id entry (an entry whose save has not completed is not visible). */
    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return journals.byId(layout.agent(agentId), checkpointId, () -> query.byId(agentId, checkpointId));
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        requireVersionsOnly(filter);
        return journals.latest(
                layout.agent(agentId), filter.maxVersion(), () -> query.latest(agentId, filter.maxVersion()));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        requireVersionsOnly(filter);
        int limit = filter.limit() == null ? Integer.MAX_VALUE : filter.limit();
        return journals.find(
                layout.agent(agentId),
                filter.maxVersion(),
                limit,
                () -> query.find(agentId, filter.maxVersion(), limit));
    }

    /** Every checkpoint up to the filter's {@code maxVersion}: the other fields are inside the documents. */
    @Override
    public Optional<CandidateScan> candidateScan() {
        return Optional.of(this::candidates);
    }

    private Iterator<StoredDocument> candidates(String agentId, CheckpointFilter filter) {
        AgentPaths paths = layout.agent(agentId);
        return journals.exists(paths)
                ? journals.newestFirst(paths, filter.maxVersion())
                : query.newestFirst(agentId, filter.maxVersion());
    }

    /** Both forms: the journal and any checkpoint files. */
    @Override
    public int deleteAll(String agentId) {
        AgentPaths paths = layout.agent(agentId);
        fileAgents.remove(paths.directory());
        try {
            return journals.deleteAll(paths) + deleter.delete(agentId, version -> true);
        } catch (IOException e) {
            throw IoFailures.unavailable("delete checkpoints in", paths.directory(), e);
        }
    }

    /** Both forms: the journal and any checkpoint files. */
    @Override
    public int deleteBefore(String agentId, long version) {
        AgentPaths paths = layout.agent(agentId);
        try {
            return journals.deleteBefore(paths, version) + deleter.delete(agentId, stored -> stored < version);
        } catch (IOException e) {
            throw IoFailures.unavailable("delete checkpoints in", paths.directory(), e);
        }
    }

    @Override
    public List<String> listAgents() {
        return lister.list(
                directory -> journals.hasRecords(layout.atDirectory(directory)) || layout.hasCheckpoints(directory));
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    /** The root is a readable, writable directory. */
    @Override
    public void checkHealth() {
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            throw IoFailures.unavailable(
                    "use the root directory", root, new IOException("not a writable directory: " + root));
        }
    }

    @Override
    public String describe() {
        return "files under " + root;
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return "file of checkpoint '" + checkpointId + "' of agent '" + agentId + "' under " + root;
    }

    /** Holds no open files between calls. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return root.toString();
    }

    private static void requireVersionsOnly(CheckpointFilter filter) {
        if (filter.nodeId() != null
                || filter.createdAfter() != null
                || filter.createdBefore() != null
                || !filter.metadata().isEmpty()
                || !filter.includeTombstones()) {
            throw new IllegalArgumentException("the file backend filters versions only; the shell filters the rest");
        }
    }

    /**
     * The backend's segment area: the agent's journal when it has one of format 2, and the segment directory
     * ({@code <agent>/.segments/}) for the rest.
     */
    private final class Segments implements HistorySegmentStore {
        private final SegmentFiles files;
        private final AgentJournals journals;

        Segments(SegmentFiles files, AgentJournals journals) {
            this.files = files;
            this.journals = journals;
        }

        @Override
        public void putSegment(String agentId, String segmentId, byte[] content) {
            AgentPaths paths = layout.agent(agentId);
            try {
                if (journals.exists(paths) && journals.putSegments(paths, Map.of(segmentId, content))) {
                    return;
                }
            } catch (IOException e) {
                throw IoFailures.unavailable("write history segment in", paths.journal(), e);
            }
            files.put(agentId, segmentId, content);
        }

        /** From the journal, then one file per segment it does not hold. */
        @Override
        public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
            Map<String, byte[]> found = journals.getSegments(layout.agent(agentId), segmentIds);
            if (found.size() == segmentIds.size()) {
                return found;
            }
            var rest = new ArrayList<String>(segmentIds.size() - found.size());
            for (String id : segmentIds) {
                if (!found.containsKey(id)) {
                    rest.add(id);
                }
            }
            var all = new HashMap<>(found);
            all.putAll(files.get(agentId, rest));
            return all;
        }

        /** Both places; a segment in both with its later write time. */
        @Override
        public List<SegmentInfo> listSegments(String agentId) {
            List<SegmentInfo> inJournal = journals.listSegments(layout.agent(agentId));
            List<SegmentInfo> asFiles = files.list(agentId);
            if (inJournal.isEmpty() || asFiles.isEmpty()) {
                return inJournal.isEmpty() ? asFiles : inJournal;
            }
            var byId = new TreeMap<String, SegmentInfo>();
            for (SegmentInfo info : inJournal) {
                byId.put(info.segmentId(), info);
            }
            for (SegmentInfo info : asFiles) {
                byId.merge(info.segmentId(), info, (a, b) -> a.writtenAt().isAfter(b.writtenAt()) ? a : b);
            }
            return List.copyOf(byId.values());
        }

        @Override
        public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
            AgentPaths paths = layout.agent(agentId);
            try {
                Set<String> deleted = new HashSet<>(journals.dropSegments(paths, segmentIds, writtenBefore));
                deleted.addAll(files.delete(agentId, segmentIds, writtenBefore));
                return deleted.size();
            } catch (IOException e) {
                throw IoFailures.unavailable("delete history segments in", paths.journal(), e);
            }
        }

        @Override
        public List<String> listSegmentAgents() {
            return lister.list(
                    directory -> files.hasSegments(directory) || journals.hasSegments(layout.atDirectory(directory)));
        }
    }
}
