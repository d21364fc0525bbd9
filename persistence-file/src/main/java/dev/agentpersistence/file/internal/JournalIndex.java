package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one agent's journal holds, as far as it has been read: the records of the checkpoints not cut away, by version
 * and by id. Built by reading the record headers from the start of the file and kept up to date by reading only what
 * was appended since ({@link #catchUp}); a different file (another generation in the file header: replaced by
 * compaction, or removed and created again) is read from the start ({@link #adopt}). Not thread-safe: callers
 * synchronise on it.
 *
 * <p>The end of the file may hold a record that is still being appended, or a torn one left by a crash: a header that
 * does not parse or a record that does not fit, with no complete record after it. A reader stops there and reads on
 * next time; a writer, holding the agent's lock, knows no append is running and truncates it. Bytes that do not parse
 * with complete records after them are a damaged span ({@link #damaged()}): reported, never truncated.
 */
final class JournalIndex {
    /** A checkpoint record: where it is and what it holds. */
    record Entry(long offset, long size, long version, String checkpointId, int documentLength) {}

    private final NavigableMap<Long, Entry> byVersion = new TreeMap<>();
    private final Map<String, Entry> byId = new HashMap<>();
    private final List<String> damaged = new ArrayList<>();
    private String generation;
    private long end = JournalFormat.FILE_HEADER_SIZE;
    private long liveBytes;

    /** The entry of {@code version}. */
    Optional<Entry> version(long version) {
        return Optional.ofNullable(byVersion.get(version));
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

    /** Bytes of records that no longer count (cut checkpoints and the cuts themselves). */
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
        damaged.clear();
        generation = null;
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
        byte[] header = new byte[JournalFormat.HEADER_SIZE + JournalFormat.MAX_ID_BYTES];
        long position = end;
        while (position < size) {
            if (size - position < JournalFormat.HEADER_SIZE) {
                return position;
            }
            int read = readAt(channel, header, position, (int) Math.min(header.length, size - position));
            JournalFormat.Header parsed = read >= JournalFormat.HEADER_SIZE ? JournalFormat.header(header, 0) : null;
            if (parsed == null
                    || position + parsed.size() > size
                    || read < JournalFormat.HEADER_SIZE + parsed.idLength()) {
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
            apply(position, parsed, parsed.kind() == JournalFormat.CHECKPOINT ? parsed.checkpointId(header) : null);
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
        JournalFormat.Header parsed = JournalFormat.header(record, 0);
        apply(end, parsed, parsed.kind() == JournalFormat.CHECKPOINT ? parsed.checkpointId(record) : null);
        end += record.length;
    }

    private void apply(long offset, JournalFormat.Header header, String checkpointId) {
        if (header.kind() == JournalFormat.CUT) {
            var cut = byVersion.headMap(header.version(), false);
            for (Entry gone : cut.values()) {
                byId.remove(gone.checkpointId(), gone);
                liveBytes -= gone.size();
            }
            cut.clear();
            return;
        }
        if (byVersion.containsKey(header.version()) || byId.containsKey(checkpointId)) {
            return; // a duplicate, which no writer appends (it checks under the lock): the first one counts
        }
        var entry = new Entry(offset, header.size(), header.version(), checkpointId, header.documentLength());
        byVersion.put(entry.version(), entry);
        byId.put(checkpointId, entry);
        liveBytes += entry.size();
    }

    /**
     * Whether the journal open in {@code channel} holds a complete record (its first one, or one after damage), without
     * indexing it; a journal whose file header does not parse counts as holding one. Journals never hold only cut
     * records: a deletion that leaves nothing removes the journal.
     */
    static boolean holdsARecord(FileChannel channel) throws IOException {
        long size = channel.size();
        byte[] header = new byte[JournalFormat.FILE_HEADER_SIZE];
        if (readAt(channel, header, 0, header.length) < header.length) {
            return false;
        }
        if (JournalFormat.generation(header) == null) {
            return true;
        }
        long first = JournalFormat.FILE_HEADER_SIZE;
        byte[] recordHeader = new byte[JournalFormat.HEADER_SIZE];
        if (readAt(channel, recordHeader, first, recordHeader.length) == recordHeader.length) {
            JournalFormat.Header parsed = JournalFormat.header(recordHeader, 0);
            if (parsed != null && first + parsed.size() <= size && intact(channel, first, parsed)) {
                return true;
            }
        }
        return nextRecord(channel, first + 1, size) >= 0;
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
