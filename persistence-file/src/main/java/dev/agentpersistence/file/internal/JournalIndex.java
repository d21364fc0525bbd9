package dev.agentpersistence.file.internal;

import dev.agentpersistence.backend.ExpectedHead;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one agent's journal holds, as far as it has been read: the records of the checkpoints not cut away, by version
 * and by id, and the history segments not dropped, by id. Built by reading the record headers from the start of the
 * file and kept up to date by reading only what was appended since ({@link #catchUp}); a different file (another
 * generation in the file header: replaced by compaction, or removed and created again) is read from the start
 * ({@link #adopt}). Not thread-safe: callers synchronise on it.
 *
 * <p>The end of the file may hold a record that is still being appended, or a torn one left by a crash: a header that
 * does not parse or a record that does not fit, with no complete record after it. A reader stops there and reads on
 * next time; a writer, holding the agent's lock, knows no append is running and truncates it. Bytes that do not parse
 * with complete records after them are a damaged span ({@link #damaged()}): reported, never truncated.
 */
final class JournalIndex {
    /** A checkpoint record: where it is and what it holds. */
    record Entry(long offset, long size, long version, String checkpointId, int documentLength) {}

    /**
     * A segment record and its latest touch: where they are, how many bytes the segment holds and when it was last
     * written.
     *
     * @param touchOffset the offset of the latest touch record, {@code -1} when there is none
     */
    record Segment(
            long offset,
            long size,
            String segmentId,
            int contentLength,
            Instant writtenAt,
            long touchOffset,
            long touchSize) {}

    /** A run of bytes of the file, for compaction. */
    record Span(long offset, long size) {}

    private final NavigableMap<Long, Entry> byVersion = new TreeMap<>();
    private final Map<String, Entry> byId = new HashMap<>();
    private final Map<String, Segment> segments = new HashMap<>();
    private final List<String> damaged = new ArrayList<>();
    private String generation;
    private int format;
    private long end = JournalFormat.FILE_HEADER_SIZE;
    private long liveBytes;

    /** The entry of {@code version}. */
    Optional<Entry> version(long version) {
        return Optional.ofNullable(byVersion.get(version));
    }

    /** Whether the newest checkpoint is {@code expected} (empty: whether there is none). */
    boolean headIs(Optional<ExpectedHead> expected) {
        var newest = byVersion.lastEntry();
        return newest == null
                ? expected.isEmpty()
                : ExpectedHead.holds(expected, newest.getValue().checkpointId(), newest.getKey());
    }

    /** The entry of {@code checkpointId}. */
    Optional<Entry> id(String checkpointId) {
        return Optional.ofNullable(byId.get(checkpointId));
    }

    /**
     * The entries up to {@code maxVersion} ({@code null}: all), newest first, at most {@code max} of them, as a copy.
     */
    List<Entry> newestFirst(Long maxVersion, int max) {
        var view = maxVersion == null ? byVersion : byVersion.headMap(maxVersion, true);
        // not sized by view.size(): a bounded view counts its entries one by one
        var entries = new ArrayList<Entry>(Math.min(max, 16));
        for (Entry entry : view.descendingMap().values()) {
            if (entries.size() == max) {
                break;
            }
            entries.add(entry);
        }
        return entries;
    }

    /** The segment with this id. */
    Optional<Segment> segment(String segmentId) {
        return Optional.ofNullable(segments.get(segmentId));
    }

    /** The segments, as a copy. */
    List<Segment> segments() {
        return List.copyOf(segments.values());
    }

    /** Whether the journal holds segments. */
    boolean holdsSegments() {
        return !segments.isEmpty();
    }

    /** Whether segments may be appended: the file's format has them. */
    boolean takesSegments() {
        return format >= JournalFormat.SEGMENTS_FORMAT;
    }

    /**
     * The records that count, in file order: checkpoints (with {@code checkpoints}), segments, their latest touches.
     */
    List<Span> liveSpans(boolean checkpoints) {
        var spans = new ArrayList<Span>(byVersion.size() + segments.size());
        if (checkpoints) {
            byVersion.values().forEach(entry -> spans.add(new Span(entry.offset(), entry.size())));
        }
        for (Segment segment : segments.values()) {
            spans.add(new Span(segment.offset(), segment.size()));
            if (segment.touchOffset() >= 0) {
                spans.add(new Span(segment.touchOffset(), segment.touchSize()));
            }
        }
        spans.sort(Comparator.comparingLong(Span::offset));
        return spans;
    }

    /** How many checkpoints have a version below {@code version}. */
    int countBelow(long version) {
        return byVersion.headMap(version, false).size();
    }

    /** How many checkpoints the journal holds. */
    int size() {
        return byVersion.size();
    }

    /** The offset after the last complete record read. */
    long end() {
        return end;
    }

    /** Bytes of records that no longer count (cut checkpoints, dropped segments, older touches, cuts and drops). */
    long deadBytes() {
        return end - liveBytes;
    }

    /** Descriptions of spans that do not parse but are followed by complete records. */
    List<String> damaged() {
        return List.copyOf(damaged);
    }

    /** Forgets everything read; the next {@link #adopt} reads the file from its start. */
    void reset() {
        byVersion.clear();
        byId.clear();
        segments.clear();
        damaged.clear();
        generation = null;
        format = 0;
        end = JournalFormat.FILE_HEADER_SIZE;
        liveBytes = 0;
    }

    /** The generation of the file this index was read from; {@code null} before {@link #adopt}. */
    String generation() {
        return generation;
    }

    /**
     * Reads the file header of {@code channel} and starts over when it names another generation than the one read so
     * far.
     *
     * @return {@code false} when the file is shorter than a file header (being created, or its creation was torn by a
     *     crash): it holds no record
     * @throws JournalDamagedException when the header does not parse
     */
    boolean adopt(FileChannel channel) throws IOException {
        byte[] header = new byte[JournalFormat.FILE_HEADER_SIZE];
        if (readAt(channel, header, 0, header.length) < header.length) {
            reset();
            return false;
        }
        String found = JournalFormat.generation(header);
        if (found == null) {
            throw new JournalDamagedException(
                    "its file header does not parse (not a journal of a format this" + " release reads, or damaged)");
        }
        if (!found.equals(generation)) {
            reset();
            generation = found;
            format = JournalFormat.format(header);
        }
        return true;
    }

    /** The journal cannot be read at all: its file header does not parse. */
    static final class JournalDamagedException extends IOException {
        JournalDamagedException(String problem) {
            super(problem);
        }
    }

    /**
     * Reads the records appended after {@link #end()}, up to {@code size}.
     *
     * @return the offset of an incomplete or torn record at the end, or {@code -1} when everything up to {@code size}
     *     was read
     */
    long catchUp(FileChannel channel, long size) throws IOException {
        byte[] header = new byte[JournalFormat.HEADER_SIZE + JournalFormat.MAX_ID_BYTES + JournalFormat.TIME_SIZE];
        long position = end;
        while (position < size) {
            if (size - position < JournalFormat.HEADER_SIZE) {
                return position;
            }
            int read = readAt(channel, header, position, (int) Math.min(header.length, size - position));
            JournalFormat.Header parsed = read >= JournalFormat.HEADER_SIZE ? JournalFormat.header(header, 0) : null;
            if (parsed == null
                    || position + parsed.size() > size
                    || read < JournalFormat.HEADER_SIZE + parsed.idLength() + timeBytes(parsed)) {
                long next = nextRecord(channel, position + 1, size);
                if (next < 0) {
                    return position;
                }
                damaged.add("bytes " + position + " to " + next + " do not parse as records");
                position = next;
                end = position;
                continue;
            }
            if (position + parsed.size() == size && !intact(channel, position, parsed)) {
                return position; // the last record is torn or still being written
            }
            apply(position, parsed, header);
            position += parsed.size();
            end = position;
        }
        return -1;
    }

    /**
     * Adds a record this process appended at {@code position}, unless the index was read past it meanwhile (a reader
     * found it in the file first) or read anew.
     */
    void appended(byte[] record, long position) {
        if (position != end) {
            return;
        }
        apply(end, JournalFormat.header(record, 0), record);
        end += record.length;
    }

    /** Bytes of a write time the index reads from the start of a record's document. */
    private static int timeBytes(JournalFormat.Header header) {
        return header.kind() == JournalFormat.SEGMENT || header.kind() == JournalFormat.TOUCH
                ? JournalFormat.TIME_SIZE
                : 0;
    }

    /** Applies the record at {@code offset}; {@code bytes} hold it from its start, at least up to a write time. */
    private void apply(long offset, JournalFormat.Header header, byte[] bytes) {
        switch (header.kind()) {
            case JournalFormat.CUT -> cut(header.version());
            case JournalFormat.CHECKPOINT -> addCheckpoint(offset, header, header.checkpointId(bytes));
            default -> applySegment(offset, header, header.checkpointId(bytes), bytes);
        }
    }

    private void cut(long version) {
        var cut = byVersion.headMap(version, false);
        for (Entry gone : cut.values()) {
            byId.remove(gone.checkpointId(), gone);
            liveBytes -= gone.size();
        }
        cut.clear();
    }

    private void applySegment(long offset, JournalFormat.Header header, String segmentId, byte[] bytes) {
        Segment known = segments.get(segmentId);
        if (header.kind() == JournalFormat.DROP) {
            if (known != null) {
                segments.remove(segmentId);
                liveBytes -= known.size() + (known.touchOffset() >= 0 ? known.touchSize() : 0);
            }
            return;
        }
        if (header.kind() == JournalFormat.SEGMENT && known == null) {
            int contentLength = header.documentLength() - JournalFormat.TIME_SIZE;
            segments.put(
                    segmentId,
                    new Segment(offset, header.size(), segmentId, contentLength, header.writtenAt(bytes), -1, 0));
            liveBytes += header.size();
            return;
        }
        if (header.kind() == JournalFormat.TOUCH && known != null) {
            liveBytes += header.size() - (known.touchOffset() >= 0 ? known.touchSize() : 0);
            segments.put(
                    segmentId,
                    new Segment(
                            known.offset(),
                            known.size(),
                            segmentId,
                            known.contentLength(),
                            header.writtenAt(bytes),
                            offset,
                            header.size()));
        }
        // a segment appended twice, or a touch of an absent one, which no writer appends (it checks under the lock)
    }

    private void addCheckpoint(long offset, JournalFormat.Header header, String checkpointId) {
        if (byVersion.containsKey(header.version()) || byId.containsKey(checkpointId)) {
            return; // a duplicate, which no writer appends (it checks under the lock): the first one counts
        }
        var entry = new Entry(offset, header.size(), header.version(), checkpointId, header.documentLength());
        byVersion.put(entry.version(), entry);
        byId.put(checkpointId, entry);
        liveBytes += entry.size();
    }

    /**
     * Whether the journal open in {@code channel} holds a checkpoint (or damage), without keeping an index; a journal
     * whose file header does not parse counts as holding one. A deletion that leaves no checkpoint never appends a cut:
     * it removes the journal, or rewrites it with its segments alone. So a journal holding a complete checkpoint record
     * holds a live checkpoint, and the first one found answers; only when none is found before the end, or the record
     * headers stop parsing, is the whole journal read.
     */
    static boolean holdsARecord(FileChannel channel) throws IOException {
        long size = channel.size();
        byte[] header = new byte[JournalFormat.FILE_HEADER_SIZE];
        if (readAt(channel, header, 0, header.length) < header.length) {
            return false;
        }
        if (JournalFormat.format(header) < 0) {
            return true;
        }
        long position = JournalFormat.FILE_HEADER_SIZE;
        byte[] recordHeader = new byte[JournalFormat.HEADER_SIZE];
        while (position < size && readAt(channel, recordHeader, position, recordHeader.length) == recordHeader.length) {
            JournalFormat.Header parsed = JournalFormat.header(recordHeader, 0);
            if (parsed == null || position + parsed.size() > size) {
                break; // damage, or a torn end: decided below
            }
            if (parsed.kind() == JournalFormat.CHECKPOINT && intact(channel, position, parsed)) {
                return true;
            }
            position += parsed.size();
        }
        JournalIndex index = readWhole(channel);
        return index.size() > 0 || !index.damaged().isEmpty();
    }

    /** Whether the journal open in {@code channel} holds a segment, without keeping an index. */
    static boolean holdsSegments(FileChannel channel) throws IOException {
        try {
            return readWhole(channel).holdsSegments();
        } catch (JournalDamagedException e) {
            return false;
        }
    }

    private static JournalIndex readWhole(FileChannel channel) throws IOException {
        var index = new JournalIndex();
        if (index.adopt(channel)) {
            index.catchUp(channel, channel.size());
        }
        return index;
    }

    /**
     * Whether the record at {@code position} is complete: its trailing checksum matches its id and document. Read in
     * chunks, so a record of any size is checked in bounded memory.
     */
    private static boolean intact(FileChannel channel, long position, JournalFormat.Header header) throws IOException {
        var crc = new java.util.zip.CRC32C();
        byte[] chunk = new byte[(int) Math.min(64 * 1024, header.size())];
        long from = position + JournalFormat.HEADER_SIZE;
        long remaining = (long) header.idLength() + header.documentLength();
        while (remaining > 0) {
            int length = (int) Math.min(chunk.length, remaining);
            if (readAt(channel, chunk, from, length) < length) {
                return false;
            }
            crc.update(chunk, 0, length);
            from += length;
            remaining -= length;
        }
        byte[] trailer = new byte[JournalFormat.TRAILER_SIZE];
        return readAt(channel, trailer, from, trailer.length) == trailer.length
                && ByteBuffer.wrap(trailer).getInt() == (int) crc.getValue();
    }

    /** The offset of the next complete record after a span that does not parse; {@code -1} when there is none. */
    private static long nextRecord(FileChannel channel, long from, long size) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        byte[] header = new byte[JournalFormat.HEADER_SIZE];
        for (long start = from; start < size; start += chunk.length - 3) {
            int read = readAt(channel, chunk, start, (int) Math.min(chunk.length, size - start));
            for (int i = 0; i + 3 < read; i++) {
                if (ByteBuffer.wrap(chunk, i, 4).getInt() != JournalFormat.MAGIC) {
                    continue;
                }
                long candidate = start + i;
                if (readAt(channel, header, candidate, header.length) < header.length) {
                    continue;
                }
                JournalFormat.Header parsed = JournalFormat.header(header, 0);
                if (parsed != null && candidate + parsed.size() <= size && intact(channel, candidate, parsed)) {
                    return candidate;
                }
            }
            if (read < chunk.length) {
                break;
            }
        }
        return -1;
    }

    /** Reads up to {@code length} bytes at {@code position}; fewer only at the end of the file. */
    static int readAt(FileChannel channel, byte[] into, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(into, 0, length);
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position + buffer.position());
            if (read < 0) {
                break;
            }
        }
        return buffer.position();
    }
}
