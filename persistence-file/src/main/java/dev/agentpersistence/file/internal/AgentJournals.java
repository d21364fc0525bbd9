package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.NewestFirstWalk;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agents kept as a journal: all of an agent's checkpoints in one file, {@code <agent>/.journal}, as records appended
 * one after the other ({@link JournalFormat}). A save is one append and one {@code fdatasync} under the agent's lock;
 * deletions append a cut, and the file is compacted (its live records copied to a new file that replaces it) once cut
 * records outweigh live ones.
 *
 * <p>Each record is complete in itself and checksummed, so a record torn by a crash is recognised: readers stop before
 * it, and the next writer truncates it before appending. The lock is the one of the agent's head
 * ({@link AgentHead#withLock}), so journal writers exclude each other across threads, provider instances and processes.
 * Readers take no lock: each look opens the journal, reads its file header (a journal of another generation is indexed
 * from its start) and the record headers appended since the last look ({@link JournalIndex}), and reads records from
 * that same open file, checking each against its checksums and its index entry.
 *
 * <p>A journal of format 2 also holds the agent's history segments: a save appends its new segments and its checkpoint
 * in one write and forces the file once, so the message log costs no flush of its own. A segment written again appends
 * a touch (its new write time), a deleted one a drop; compaction counts both like cuts. Segments of an agent written as
 * files before (or into a journal of format 1) stay files, and are read, listed and deleted there too
 * ({@code FileStorageBackend}).
 *
 * <p>An agent is in this form while its journal exists. The journal is created by an agent's first save when the
 * provider writes journals and the agent has no checkpoint files; it is removed when nothing in it counts any more: no
 * checkpoint and no segment.
 */
final class AgentJournals {
    /** Agents whose index a backend keeps; the least recently used is dropped beyond that. */
    private static final int CACHED_AGENTS = 256;
    /** Dead bytes below which deletions only append a cut, whatever the live bytes. */
    private static final long COMPACTION_MINIMUM = 64 * 1024;
    /** Looks a walk takes while the journal is replaced under it, before it takes it as being deleted. */
    private static final int READ_ATTEMPTS = 4;

    private final FileLayout layout;
    private final DurableFiles files;
    private final AgentHead head;
    private final Clock clock;
    private final long maxDocumentSize;
    private final boolean skipCorrupt;
    private final Map<Path, JournalIndex> indexes = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, JournalIndex> eldest) {
            return size() > CACHED_AGENTS;
        }
    });

    AgentJournals(
            FileLayout layout,
            DurableFiles files,
            AgentHead head,
            Clock clock,
            long maxDocumentSize,
            boolean skipCorrupt) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.head = Objects.requireNonNull(head, "head");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxDocumentSize = maxDocumentSize;
        this.skipCorrupt = skipCorrupt;
    }

    /** Whether the agent is kept as a journal. */
    boolean exists(AgentPaths paths) {
        return paths.journal().toFile().exists();
    }

    /**
     * Whether the agent directory holds a journal with at least one checkpoint (also a journal too damaged to tell, so
     * that the agent stays visible). Reads the start of the journal only and keeps no index: listing agents must not
     * index every journal.
     */
    boolean hasRecords(AgentPaths paths) {
        try (FileChannel channel = openForReading(paths)) {
            return channel != null && JournalIndex.holdsARecord(channel);
        } catch (IOException e) {
            throw IoFailures.unavailable("read", paths.journal(), e);
        }
    }

    /** Where segments go that a journal of format 1 cannot hold: the segment files. */
    interface SegmentFallback {
        void put(Map<String, byte[]> segments);
    }

    /**
     * Appends {@code segments} and {@code checkpoint} to its agent's journal in one write, unless the checkpoint's
     * version or id is taken (then the segments alone are appended, and the records holding them are returned). A
     * journal of format 1 hands the segments to {@code fallback} first. Empty when the agent has no journal and
     * {@code create} is {@code false} or the agent has checkpoint files: nothing was written, and the caller saves both
     * as files.
     *
     * @param expected {@code null} for a plain insert; else the record is appended only while the journal's newest
     *     checkpoint is this head (empty: while it has none), checked under the agent's lock
     */
    Optional<InsertResult> insert(
            AgentPaths paths,
            StoredCheckpoint checkpoint,
            Map<String, byte[]> segments,
            boolean create,
            SegmentFallback fallback,
            Optional<ExpectedHead> expected)
            throws IOException {
        byte[] record =
                JournalFormat.checkpoint(checkpoint.version(), checkpoint.checkpointId(), checkpoint.document());
        return head.withLock(paths, lockFile -> {
            FileChannel opened = openForAppending(paths, create);
            if (opened == null) {
                return Optional.<InsertResult>empty();
            }
            try (FileChannel channel = opened) {
                return Optional.of(append(paths, channel, checkpoint, record, segments, fallback, expected));
            }
        });
    }

    /**
     * Appends {@code segments} to the agent's journal in one write; {@code false} when the agent has no journal, or one
     * of format 1: nothing was written, and the caller stores them as files.
     */
    boolean putSegments(AgentPaths paths, Map<String, byte[]> segments) throws IOException {
        return head.withLock(paths, lockFile -> {
            FileChannel opened = openForAppending(paths, false);
            if (opened == null) {
                return false;
            }
            try (FileChannel channel = opened) {
                boolean created = channel.size() < JournalFormat.FILE_HEADER_SIZE; // its creation was torn
                JournalIndex index = indexFor(paths);
                List<byte[]> records = new ArrayList<>();
                long position;
                synchronized (index) {
                    catchUpForWriting(paths, channel, index);
                    if (!index.takesSegments()) {
                        return false;
                    }
                    addSegmentRecords(index, segments, records);
                    position = index.end();
                }
                write(paths, channel, index, records, position, created);
                return true;
            }
        });
    }

    /**
     * The agent's journal opened for appending, created when missing if {@code create} and the agent has no checkpoint
     * files; {@code null} otherwise.
     */
    private FileChannel openForAppending(AgentPaths paths, boolean create) throws IOException {
        try {
            return FileChannel.open(paths.journal(), StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            if (!create || layout.hasCheckpoints(paths.directory())) {
                return null;
            }
            return FileChannel.open(
                    paths.journal(), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
    }

    /**
     * Appends {@code record} (holding the agent's lock) unless the version or id is taken. The index is locked only to
     * look and to note the record, never while it is forced, so readers in this process do not wait for the disk.
     */
    private InsertResult append(
            AgentPaths paths,
            FileChannel channel,
            StoredCheckpoint checkpoint,
            byte[] record,
            Map<String, byte[]> segments,
            SegmentFallback fallback,
            Optional<ExpectedHead> expected)
            throws IOException {
        boolean created = channel.size() < JournalFormat.FILE_HEADER_SIZE; // new, or its creation was torn
        JournalIndex index = indexFor(paths);
        List<byte[]> records = new ArrayList<>(segments.size() + 1);
        List<StoredDocument> clash = new ArrayList<>(2);
        long position;
        boolean headHolds;
        synchronized (index) {
            catchUpForWriting(paths, channel, index);
            if (!segments.isEmpty() && !index.takesSegments()) {
                fallback.put(segments);
            } else {
                addSegmentRecords(index, segments, records);
            }
            headHolds = expected == null || index.headIs(expected);
            if (!headHolds) {
                position = index.end();
            } else {
                index.version(checkpoint.version()).ifPresent(entry -> clash.add(readQuietly(paths, channel, entry)));
                index.id(checkpoint.checkpointId())
                        .filter(entry -> entry.version() != checkpoint.version())
                        .ifPresent(entry -> clash.add(readQuietly(paths, channel, entry)));
                if (clash.isEmpty()) {
                    records.add(record);
                }
                position = index.end();
            }
        }
        write(paths, channel, index, records, position, created);
        if (!headHolds) {
            return InsertResult.headMoved();
        }
        return clash.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash);
    }

    /** Adds a segment record for each new segment, a touch for each the journal holds already. */
    private void addSegmentRecords(JournalIndex index, Map<String, byte[]> segments, List<byte[]> records) {
        Instant now = clock.instant();
        segments.forEach((id, content) -> records.add(
                index.segment(id).isPresent()
                        ? JournalFormat.touch(id, now)
                        : JournalFormat.segment(id, now, content)));
    }

    /**
     * Writes {@code records} at {@code position} in one write, forces the journal once (and the agent directory when
     * the journal is new) and notes them in the index. Holds the agent's lock; the index only to note the records,
     * never while they are forced, so readers in this process do not wait for the disk.
     */
    private void write(
            AgentPaths paths,
            FileChannel channel,
            JournalIndex index,
            List<byte[]> records,
            long position,
            boolean created)
            throws IOException {
        if (records.isEmpty()) {
            return;
        }
        writeAt(channel, concatenate(records), position);
        files.force(channel, paths.journal());
        if (created) {
            files.syncDirectory(paths.directory()); // the journal's name
        }
        synchronized (index) {
            long at = position;
            for (byte[] written : records) {
                index.appended(written, at);
                at += written.length;
            }
        }
    }

    private static byte[] concatenate(List<byte[]> records) {
        if (records.size() == 1) {
            return records.get(0);
        }
        int length = 0;
        for (byte[] record : records) {
            length += record.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] record : records) {
            System.arraycopy(record, 0, all, at, record.length);
            at += record.length;
        }
        return all;
    }

    /** The stored bytes of those of {@code segmentIds} the journal holds; empty without a journal. */
    Map<String, byte[]> getSegments(AgentPaths paths, Collection<String> segmentIds) {
        return readIndexed(paths, "read history segments in", Map::of, Map.of(), (channel, index) -> {
            var wanted = new ArrayList<JournalIndex.Segment>(segmentIds.size());
            synchronized (index) {
                bringUpToDate(paths, channel, index);
                for (String id : segmentIds) {
                    index.segment(id).ifPresent(wanted::add);
                }
            }
            var found = new HashMap<String, byte[]>();
            for (JournalIndex.Segment segment : wanted) {
                found.put(segment.segmentId(), readSegment(paths, channel, segment));
            }
            return found;
        });
    }

    /** A read of records through the index, from the journal open in {@code channel}. */
    private interface IndexedRead<T> {
        T read(FileChannel channel, JournalIndex index) throws IOException;
    }

    /**
     * Runs {@code read} on the agent's journal, opened once; a record that is not where the index put it (the journal
     * changed in place, by hand) makes it index the journal again and run once more before reporting the record as
     * corrupt. Without a journal: what {@code withoutJournal} finds, or {@code goneMeanwhile} when the journal was
     * removed between the two runs.
     */
    private <T> T readIndexed(
            AgentPaths paths, String operation, Supplier<T> withoutJournal, T goneMeanwhile, IndexedRead<T> read) {
        for (int attempt = 1; ; attempt++) {
            try (FileChannel channel = openForReading(paths)) {
                if (channel == null) {
                    return attempt == 1 ? withoutJournal.get() : goneMeanwhile;
                }
                JournalIndex index = indexFor(paths);
                try {
                    return read.read(channel, index);
                } catch (CorruptCheckpointException e) {
                    if (attempt > 1) {
                        throw e;
                    }
                    forget(index);
                }
            } catch (IOException e) {
                throw IoFailures.unavailable(operation, paths.journal(), e);
            }
        }
    }

    /** The segments the journal holds with their write times, sorted by id; empty without a journal. */
    List<SegmentInfo> listSegments(AgentPaths paths) {
        try (FileChannel channel = openForReading(paths)) {
            if (channel == null) {
                return List.of();
            }
            JournalIndex index = indexFor(paths);
            List<JournalIndex.Segment> segments;
            synchronized (index) {
                bringUpToDate(paths, channel, index);
                segments = index.segments();
            }
            var infos = new ArrayList<SegmentInfo>(segments.size());
            segments.forEach(segment -> infos.add(new SegmentInfo(segment.segmentId(), segment.writtenAt())));
            infos.sort(Comparator.comparing(SegmentInfo::segmentId));
            return infos;
        } catch (IOException e) {
            throw IoFailures.unavailable("list history segments in", paths.journal(), e);
        }
    }

    /** Whether the agent directory holds a journal with a segment; keeps no index (see {@link #hasRecords}). */
    boolean hasSegments(AgentPaths paths) {
        try (FileChannel channel = openForReading(paths)) {
            return channel != null && JournalIndex.holdsSegments(channel);
        } catch (IOException e) {
            throw IoFailures.unavailable("read", paths.journal(), e);
        }
    }

    /**
     * Drops those of {@code segmentIds} the journal holds with a write time before {@code writtenBefore}, in one forced
     * write; compacts or removes the journal as a deletion of checkpoints does. Returns the ids dropped.
     */
    Set<String> dropSegments(AgentPaths paths, Collection<String> segmentIds, Instant writtenBefore)
            throws IOException {
        var dropped = new HashSet<String>();
        deleting(paths, (channel, index) -> {
            var records = new ArrayList<byte[]>();
            for (String id : segmentIds) {
                if (index.segment(id)
                                .filter(segment -> segment.writtenAt().isBefore(writtenBefore))
                                .isPresent()
                        && dropped.add(id)) {
                    records.add(JournalFormat.drop(id));
                }
            }
            if (records.isEmpty()) {
                return 0;
            }
            if (index.size() == 0
                    && index.segments().size() == dropped.size()
                    && index.damaged().isEmpty()) {
                remove(paths, index);
                return dropped.size();
            }
            byte[] all = concatenate(records);
            writeAt(channel, all, index.end());
            files.force(channel, paths.journal());
            long at = index.end();
            for (byte[] record : records) {
                index.appended(record, at);
                at += record.length;
            }
            compactIfWorthIt(paths, channel, index);
            return dropped.size();
        });
        return dropped;
    }

    /**
     * The checkpoint with this id; empty when the journal holds none. When the agent has no journal, what
     * {@code withoutJournal} finds (its checkpoint files): opening the journal is the check of the agent's form, so a
     * read costs no separate look for the file.
     */
    Optional<StoredDocument> byId(
            AgentPaths paths, String checkpointId, Supplier<Optional<StoredDocument>> withoutJournal) {
        return readIndexed(paths, "read", withoutJournal, Optional.empty(), (channel, index) -> {
            JournalIndex.Entry entry;
            synchronized (index) {
                bringUpToDate(paths, channel, index);
                entry = index.id(checkpointId).orElse(null);
                if (entry == null) {
                    reportDamage(paths, index, checkpointId);
                    return Optional.empty();
                }
            }
            return Optional.of(readRecord(paths, channel, entry));
        });
    }

    /**
     * The checkpoint with the highest version up to {@code maxVersion} ({@code null}: any); when the agent has no
     * journal, what {@code withoutJournal} finds (see {@link #byId}).
     */
    Optional<StoredDocument> latest(
            AgentPaths paths, Long maxVersion, Supplier<Optional<StoredDocument>> withoutJournal) {
        var walk = new Walk(paths, maxVersion);
        if (walk.hasNext()) {
            return Optional.of(walk.next());
        }
        return walk.foundNoJournal() ? withoutJournal.get() : Optional.empty();
    }

    /**
     * Up to {@code limit} checkpoints with a version up to {@code maxVersion}, ascending; when the agent has no
     * journal, what {@code withoutJournal} finds (see {@link #byId}).
     */
    List<StoredDocument> find(
            AgentPaths paths, Long maxVersion, int limit, Supplier<List<StoredDocument>> withoutJournal) {
        var walk = new Walk(paths, maxVersion);
        List<StoredDocument> found = walk.newestAscending(limit);
        return found.isEmpty() && walk.foundNoJournal() ? withoutJournal.get() : found;
    }

    /** The checkpoints up to {@code maxVersion}, newest first, each read when the caller advances. */
    Iterator<StoredDocument> newestFirst(AgentPaths paths, Long maxVersion) {
        return new Walk(paths, maxVersion);
    }

    /**
     * Deletes the agent's checkpoints: removes the journal, or, when it holds segments, copies them to a new journal
     * that replaces it. Returns how many checkpoints it held (0 without a journal).
     */
    int deleteAll(AgentPaths paths) throws IOException {
        return deleting(paths, (channel, index) -> {
            int count = index.size();
            if (count > 0 || !index.damaged().isEmpty() || !index.holdsSegments()) {
                deleteEveryCheckpoint(paths, channel, index);
            }
            return count;
        });
    }

    /**
     * Removes the journal, or, when it holds segments, copies them alone to a new journal that replaces it: never a cut
     * that leaves no checkpoint, so that {@link JournalIndex#holdsARecord} can trust the first checkpoint it finds.
     */
    private void deleteEveryCheckpoint(AgentPaths paths, FileChannel channel, JournalIndex index) throws IOException {
        if (!index.holdsSegments() || !index.damaged().isEmpty()) {
            remove(paths, index); // with damage, copying the segments would drop the damaged span silently
        } else {
            compact(paths, channel, index, false);
        }
    }

    /**
     * Deletes the checkpoints below {@code version}: appends a cut, or compacts the journal when cut records outweigh
     * live ones; when no checkpoint is left, removes it or rewrites it with its segments alone. Returns how many.
     */
    int deleteBefore(AgentPaths paths, long version) throws IOException {
        if (version == Long.MIN_VALUE) {
            return 0;
        }
        return deleting(paths, (channel, index) -> {
            int below = index.countBelow(version);
            if (below == 0) {
                return 0;
            }
            if (below == index.size()) {
                deleteEveryCheckpoint(paths, channel, index);
                return below;
            }
            byte[] cut = JournalFormat.cut(version);
            writeAt(channel, cut, index.end());
            files.force(channel, paths.journal());
            index.appended(cut, index.end());
            compactIfWorthIt(paths, channel, index);
            return below;
        });
    }

    /** Compacts the journal once dead records outweigh live ones (and at least the minimum); never with damage. */
    private void compactIfWorthIt(AgentPaths paths, FileChannel channel, JournalIndex index) throws IOException {
        // never with damage: copying the live records would drop the damaged span silently
        if (index.damaged().isEmpty()
                && index.deadBytes() >= COMPACTION_MINIMUM
                && index.deadBytes() > index.end() - index.deadBytes()) {
            compact(paths, channel, index, true);
        }
    }

    /** A deletion's work on the journal, holding the agent's lock and the index brought up to the end. */
    private interface Deletion {
        int run(FileChannel channel, JournalIndex index) throws IOException;
    }

    /** Runs {@code deletion} on the agent's journal; 0 when the agent has none. */
    private int deleting(AgentPaths paths, Deletion deletion) throws IOException {
        if (!exists(paths)) {
            return 0;
        }
        return head.withLock(paths, lockFile -> {
            try (FileChannel channel =
                    FileChannel.open(paths.journal(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                JournalIndex index = indexFor(paths);
                synchronized (index) {
                    catchUpForWriting(paths, channel, index);
                    return deletion.run(channel, index);
                }
            } catch (NoSuchFileException e) {
                return 0;
            }
        });
    }

    /**
     * Copies the live records (without the checkpoints unless {@code keepCheckpoints}) to a new file of the current
     * format (a new generation) and puts it in the journal's place.
     */
    private void compact(AgentPaths paths, FileChannel channel, JournalIndex index, boolean keepCheckpoints)
            throws IOException {
        List<JournalIndex.Span> live = index.liveSpans(keepCheckpoints);
        Path temp = paths.directory().resolve(WriterProcess.newTempName());
        try {
            try (FileChannel copy = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                writeAt(copy, JournalFormat.fileHeader(), 0);
                copy.position(JournalFormat.FILE_HEADER_SIZE);
                for (JournalIndex.Span entry : live) {
                    long copied = 0;
                    while (copied < entry.size()) {
                        copied += channel.transferTo(entry.offset() + copied, entry.size() - copied, copy);
                    }
                }
                files.force(copy, temp);
            }
            Files.move(temp, paths.journal(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            files.syncDirectory(paths.directory());
        } finally {
            files.deleteQuietly(temp);
        }
        index.reset(); // the next call reads the new file from its start
    }

    private void remove(AgentPaths paths, JournalIndex index) throws IOException {
        files.deleteIfExists(paths.journal());
        files.syncDirectory(paths.directory());
        index.reset();
    }

    /**
     * Brings {@code index} up to the end of the journal, holding the lock: writes the file header of a new journal (or
     * of one whose creation a crash tore), and truncates a record torn by a crash.
     */
    private void catchUpForWriting(AgentPaths paths, FileChannel channel, JournalIndex index) throws IOException {
        try {
            if (!index.adopt(channel)) {
                channel.truncate(0);
                writeAt(channel, JournalFormat.fileHeader(), 0);
                index.adopt(channel);
            }
        } catch (JournalIndex.JournalDamagedException e) {
            throw damaged(paths, e);
        }
        long size = channel.size();
        long torn = index.catchUp(channel, size);
        if (torn >= 0) {
            log().warn("Removing {} bytes of a record torn by a crash at the end of {}", size - torn, paths.journal());
            channel.truncate(torn);
        }
    }

    /** The agent's journal opened for reading; {@code null} when the agent has none. */
    private static FileChannel openForReading(AgentPaths paths) throws IOException {
        try {
            return FileChannel.open(paths.journal(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Brings {@code index} (locked by the caller) up to the end of the open journal: reads it from the start when its
     * file header names another generation, then the records appended since.
     */
    private static void bringUpToDate(AgentPaths paths, FileChannel channel, JournalIndex index) throws IOException {
        try {
            if (index.adopt(channel)) {
                index.catchUp(channel, channel.size());
            }
        } catch (JournalIndex.JournalDamagedException e) {
            throw damaged(paths, e);
        }
    }

    private JournalIndex indexFor(AgentPaths paths) {
        return indexes.computeIfAbsent(paths.directory(), directory -> new JournalIndex());
    }

    /** Drops what {@code index} read, so the next look reads the journal from its start. */
    private static void forget(JournalIndex index) {
        synchronized (index) {
            index.reset();
        }
    }

    private static String generationOf(FileChannel channel) throws IOException {
        byte[] header = new byte[JournalFormat.FILE_HEADER_SIZE];
        return JournalIndex.readAt(channel, header, 0, header.length) == header.length
                ? JournalFormat.generation(header)
                : null;
    }

    private StoredDocument readQuietly(AgentPaths paths, FileChannel channel, JournalIndex.Entry entry) {
        try {
            return readRecord(paths, channel, entry);
        } catch (IOException e) {
            throw IoFailures.unavailable("read", paths.journal(), e);
        }
    }

    /** Reads and checks the record of {@code entry}. */
    private StoredDocument readRecord(AgentPaths paths, FileChannel channel, JournalIndex.Entry entry)
            throws IOException {
        String where = paths.journal() + " at byte " + entry.offset();
        if (entry.documentLength() > maxDocumentSize) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    entry.checkpointId(),
                    where,
                    "the record holds " + entry.documentLength() + " bytes, more than the maximum checkpoint size of "
                            + maxDocumentSize,
                    null);
        }
        byte[] record = new byte[(int) entry.size()];
        int read = JournalIndex.readAt(channel, record, entry.offset(), record.length);
        JournalFormat.Header header = read == record.length ? JournalFormat.header(record, 0) : null;
        if (header == null
                || header.kind() != JournalFormat.CHECKPOINT
                || header.version() != entry.version()
                || header.size() != entry.size()
                || !header.checkpointId(record).equals(entry.checkpointId())) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    entry.checkpointId(),
                    where,
                    "the record of version " + entry.version() + " is not where the journal's index put it",
                    null);
        }
        if (!JournalFormat.bodyIntact(record, header)) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    entry.checkpointId(),
                    where,
                    "the record's checksum does not match its content",
                    null);
        }
        return new StoredDocument(
                paths.agentId(), entry.checkpointId(), entry.version(), header.document(record), where);
    }

    /**
     * Reads and checks the record of {@code segment}, announced no larger than the maximum checkpoint size; its bytes.
     */
    private byte[] readSegment(AgentPaths paths, FileChannel channel, JournalIndex.Segment segment) throws IOException {
        String where = paths.journal() + " at byte " + segment.offset();
        if (segment.contentLength() > maxDocumentSize) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    null,
                    where,
                    "the record of history segment '" + segment.segmentId() + "' holds " + segment.contentLength()
                            + " bytes, more than the maximum checkpoint size of " + maxDocumentSize,
                    null);
        }
        byte[] record = new byte[(int) segment.size()];
        int read = JournalIndex.readAt(channel, record, segment.offset(), record.length);
        JournalFormat.Header header = read == record.length ? JournalFormat.header(record, 0) : null;
        if (header == null
                || header.kind() != JournalFormat.SEGMENT
                || header.size() != segment.size()
                || !header.checkpointId(record).equals(segment.segmentId())
                || !JournalFormat.bodyIntact(record, header)) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    null,
                    where,
                    "the record of history segment '" + segment.segmentId()
                            + "' is not where the journal's index put it, or its checksum does not match its content",
                    null);
        }
        return header.segmentContent(record);
    }

    private static CorruptCheckpointException damaged(AgentPaths paths, JournalIndex.JournalDamagedException e) {
        return new CorruptCheckpointException(
                paths.agentId(), null, paths.journal().toString(), "the journal cannot be read: " + e.getMessage(), e);
    }

    /** Throws (or, skipping corrupt data, logs) when the journal has spans that do not parse. */
    private void reportDamage(AgentPaths paths, JournalIndex index, String checkpointId) {
        List<String> damaged = index.damaged();
        if (damaged.isEmpty()) {
            return;
        }
        var corrupt = new CorruptCheckpointException(
                paths.agentId(),
                checkpointId,
                paths.journal().toString(),
                "the journal is damaged (" + String.join("; ", damaged) + "); the checkpoints there cannot be read",
                null);
        if (!skipCorrupt) {
            throw corrupt;
        }
        log().warn("Reading around a damaged journal: {}", corrupt.getMessage());
    }

    private static void writeAt(FileChannel channel, byte[] bytes, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer, position + buffer.position());
        }
    }

    /**
     * Newest first over looks at the index, each taking a batch of entries (8 first, for the latest checkpoint, then
     * more), so a walk that stops early copies little of a long journal. Each record is read from the journal of the
     * generation its look saw; when the journal was replaced meanwhile (compaction, or removed and created again), the
     * walk looks again below what it returned.
     */
    private final class Walk extends NewestFirstWalk {
        private static final int FIRST_BATCH = 8;
        private static final int LARGEST_BATCH = 4096;

        private final AgentPaths paths;
        /** The highest version still to walk: the filter's bound, then below the last one returned. */
        private Long upTo;

        private List<JournalIndex.Entry> entries;
        private boolean lastBatch;
        private int batch = FIRST_BATCH;
        private String generation;
        /** The journal the look read, kept open for the first record of the batch. */
        private FileChannel looked;

        private int position;
        /** Looks taken because the journal was replaced under the walk. */
        private int replaced;

        private boolean reindexed;
        /** Whether the first look found no journal. */
        private boolean noJournal;

        Walk(AgentPaths paths, Long maxVersion) {
            this.paths = paths;
            this.upTo = maxVersion;
        }

        @Override
        protected StoredDocument advance() {
            try {
                return readNext();
            } catch (IOException e) {
                throw IoFailures.unavailable("read", paths.journal(), e);
            } finally {
                closeLooked();
            }
        }

        private StoredDocument readNext() throws IOException {
            if (entries == null) {
                look();
            }
            while (true) {
                if (position == entries.size()) {
                    if (lastBatch) {
                        return null;
                    }
                    batch = Math.min(batch * 4, LARGEST_BATCH);
                    look();
                    continue;
                }
                JournalIndex.Entry entry = entries.get(position);
                // The journal the look just read holds the generation it saw: its header is never rewritten in place.
                boolean sameJournal = looked != null;
                try (FileChannel channel = sameJournal ? looked : openForReading(paths)) {
                    looked = null;
                    if (channel == null) {
                        return null; // the journal was removed: nothing is left
                    }
                    if (!sameJournal && !generation.equals(generationOf(channel))) {
                        if (++replaced >= READ_ATTEMPTS) {
                            return null; // replaced at every look: the journal is being deleted and written anew
                        }
                        look();
                        continue;
                    }
                    StoredDocument read;
                    try {
                        read = readRecord(paths, channel, entry);
                    } catch (CorruptCheckpointException e) {
                        if (!reindexed) {
                            reindexed = true;
                            forget(indexFor(paths)); // changed in place (by hand): index it again once
                            look();
                            continue;
                        }
                        if (!skipCorrupt) {
                            throw e;
                        }
                        log().warn("Skipping a corrupt checkpoint: {}", e.getMessage());
                        position++;
                        upTo = entry.version() - 1;
                        continue;
                    }
                    position++;
                    upTo = entry.version() - 1;
                    return read;
                }
            }
        }

        /** Takes the next batch of entries below {@link #upTo}, with the journal open that they were read from. */
        private void look() throws IOException {
            closeLooked();
            position = 0;
            FileChannel channel = openForReading(paths);
            if (channel == null) {
                noJournal = entries == null;
                entries = List.of();
                lastBatch = true;
                return;
            }
            try {
                JournalIndex index = indexFor(paths);
                synchronized (index) {
                    bringUpToDate(paths, channel, index);
                    reportDamage(paths, index, null);
                    entries = upTo != null && upTo < 0 ? List.of() : index.newestFirst(upTo, batch);
                    generation = index.generation();
                }
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            lastBatch = entries.size() < batch;
            looked = channel;
        }

        /** Whether the walk's first look found no journal: the agent is kept as checkpoint files, or has none. */
        boolean foundNoJournal() {
            return noJournal;
        }

        private void closeLooked() {
            if (looked != null) {
                try {
                    looked.close();
                } catch (IOException ignored) {
                    // read-only: nothing to lose
                }
                looked = null;
            }
        }
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(AgentJournals.class);
    }
}
