package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.NewestFirstWalk;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p>An agent is in this form while its journal exists. The journal is created by an agent's first save when the
 * provider writes journals and the agent has no checkpoint files; it is removed when its last checkpoint is deleted.
 */
final class AgentJournals {
    private static final Logger LOG = LoggerFactory.getLogger(AgentJournals.class);
    /** Agents whose index a backend keeps; the least recently used is dropped beyond that. */
    private static final int CACHED_AGENTS = 256;
    /** Dead bytes below which deletions only append a cut, whatever the live bytes. */
    private static final long COMPACTION_MINIMUM = 64 * 1024;
    /** Looks a walk takes while the journal is replaced under it, before it takes it as being deleted. */
    private static final int READ_ATTEMPTS = 4;

    private final FileLayout layout;
    private final DurableFiles files;
    private final AgentHead head;
    private final long maxDocumentSize;
    private final boolean skipCorrupt;
    private final Map<Path, JournalIndex> indexes = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, JournalIndex> eldest) {
            return size() > CACHED_AGENTS;
        }
    });

    AgentJournals(FileLayout layout, DurableFiles files, AgentHead head, long maxDocumentSize, boolean skipCorrupt) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.head = Objects.requireNonNull(head, "head");
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

    /**
     * Appends {@code checkpoint} to its agent's journal, unless its version or id is taken (then the records holding
     * them are returned). Empty when the agent has no journal and {@code create} is {@code false} or the agent has
     * checkpoint files: the caller saves it as a file.
     */
    Optional<InsertResult> insert(AgentPaths paths, StoredCheckpoint checkpoint, boolean create) throws IOException {
        byte[] record =
                JournalFormat.checkpoint(checkpoint.version(), checkpoint.checkpointId(), checkpoint.document());
        return head.withLock(paths, lockFile -> {
            FileChannel opened = openForAppending(paths, create);
            if (opened == null) {
                return Optional.<InsertResult>empty();
            }
            try (FileChannel channel = opened) {
                return Optional.of(append(paths, channel, checkpoint, record));
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
    private InsertResult append(AgentPaths paths, FileChannel channel, StoredCheckpoint checkpoint, byte[] record)
            throws IOException {
        boolean created = channel.size() < JournalFormat.FILE_HEADER_SIZE; // new, or its creation was torn
        JournalIndex index = indexFor(paths);
        long position;
        synchronized (index) {
            catchUpForWriting(paths, channel, index);
            var clash = new ArrayList<StoredDocument>(2);
            index.version(checkpoint.version()).ifPresent(entry -> clash.add(readQuietly(paths, channel, entry)));
            index.id(checkpoint.checkpointId())
                    .filter(entry -> entry.version() != checkpoint.version())
                    .ifPresent(entry -> clash.add(readQuietly(paths, channel, entry)));
            if (!clash.isEmpty()) {
                return InsertResult.clashedWith(clash);
            }
            position = index.end();
        }
        writeAt(channel, record, position);
        files.force(channel, paths.journal());
        if (created) {
            files.syncDirectory(paths.directory()); // the journal's name
        }
        synchronized (index) {
            index.appended(record, position);
        }
        return InsertResult.stored();
    }

    /**
     * The checkpoint with this id; empty when the journal holds none. When the agent has no journal, what
     * {@code withoutJournal} finds (its checkpoint files): opening the journal is the check of the agent's form, so a
     * read costs no separate look for the file.
     */
    Optional<StoredDocument> byId(
            AgentPaths paths, String checkpointId, Supplier<Optional<StoredDocument>> withoutJournal) {
        for (int attempt = 1; ; attempt++) {
            try (FileChannel channel = openForReading(paths)) {
                if (channel == null) {
                    return attempt == 1 ? withoutJournal.get() : Optional.empty();
                }
                JournalIndex index = indexFor(paths);
                JournalIndex.Entry entry;
                synchronized (index) {
                    bringUpToDate(paths, channel, index);
                    entry = index.id(checkpointId).orElse(null);
                    if (entry == null) {
                        reportDamage(paths, index, checkpointId);
                        return Optional.empty();
                    }
                }
                try {
                    return Optional.of(readRecord(paths, channel, entry));
                } catch (CorruptCheckpointException e) {
                    if (attempt > 1) {
                        throw e;
                    }
                    forget(index); // changed in place (by hand): index it again once before reporting it
                }
            } catch (IOException e) {
                throw IoFailures.unavailable("read", paths.journal(), e);
            }
        }
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

    /** Removes the agent's journal; returns how many checkpoints it held (0 without a journal). */
    int deleteAll(AgentPaths paths) throws IOException {
        return deleting(paths, (channel, index) -> {
            int count = index.size();
            remove(paths, index);
            return count;
        });
    }

    /**
     * Deletes the checkpoints below {@code version}: appends a cut, or compacts the journal when cut records outweigh
     * live ones, or removes it when nothing is left. Returns how many.
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
                remove(paths, index);
                return below;
            }
            byte[] cut = JournalFormat.cut(version);
            writeAt(channel, cut, index.end());
            files.force(channel, paths.journal());
            index.appended(cut, index.end());
            // never with damage: copying the live records would drop the damaged span silently
            if (index.damaged().isEmpty()
                    && index.deadBytes() >= COMPACTION_MINIMUM
                    && index.deadBytes() > index.end() - index.deadBytes()) {
                compact(paths, channel, index);
            }
            return below;
        });
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

    /** Copies the live records to a new file (a new generation) and puts it in the journal's place. */
    private void compact(AgentPaths paths, FileChannel channel, JournalIndex index) throws IOException {
        List<JournalIndex.Entry> live = index.newestFirst(null, Integer.MAX_VALUE);
        Collections.reverse(live);
        Path temp = paths.directory().resolve(WriterProcess.newTempName());
        try {
            try (FileChannel copy = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                writeAt(copy, JournalFormat.fileHeader(), 0);
                copy.position(JournalFormat.FILE_HEADER_SIZE);
                for (JournalIndex.Entry entry : live) {
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
            LOG.warn("Removing {} bytes of a record torn by a crash at the end of {}", size - torn, paths.journal());
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
        LOG.warn("Reading around a damaged journal: {}", corrupt.getMessage());
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
                        LOG.warn("Skipping a corrupt checkpoint: {}", e.getMessage());
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
}
