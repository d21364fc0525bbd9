package dev.agentpersistence.file.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * The format of an agent's journal ({@code <agent>/.journal}): a file header, then records appended one after the
 * other, each complete in itself, so a reader finds every record from the file alone.
 *
 * <p>The file header ({@value #FILE_HEADER_SIZE} bytes): magic "APJF", the format version, a random generation of 16
 * bytes, 4 reserved bytes, and the CRC-32C of the 28 bytes before it. A journal replaced by compaction gets a new
 * generation, so a reader that kept an index of the old file notices, even when the file system reuses the old file's
 * identity for the new one. Format 1 holds checkpoints and cuts; format 2, written since, may also hold history
 * segments (kinds 3–5), which a reader of format 1 would take for damage. Both are read.
 *
 * <p>A record:
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "APJ1"
 *      4     1  kind: 1 = checkpoint, 2 = cut (the checkpoints below {@code version} are deleted),
 *               3 = segment, 4 = touch (a segment written again), 5 = drop (a segment deleted)
 *      5     8  version (0 for kinds 3–5)
 *     13     2  length of the id in UTF-8: checkpoint id, or segment id for kinds 3–5 (0 for a cut)
 *     15     4  length of the document (0 for a cut and a drop)
 *     19     4  CRC-32C of bytes 0–18
 *     23     n  id (UTF-8), then the document
 *   23+n     4  CRC-32C of the id and the document
 * </pre>
 *
 * The document of a segment is its write time (8 bytes of epoch seconds, 4 of nanoseconds), then the segment's bytes;
 * that of a touch is the new write time alone.
 *
 * <p>All numbers are big-endian. The header's own checksum lets a reader trust the lengths before it reads anything
 * they announce; the trailing checksum tells a complete record from a torn one.
 */
final class JournalFormat {
    static final int MAGIC = 0x41504A31;
    static final int FILE_MAGIC = 0x41504A46;
    /** The format new journals are written in. */
    static final int FILE_FORMAT = 2;
    /** The first format that holds segments. */
    static final int SEGMENTS_FORMAT = 2;

    static final int FILE_HEADER_SIZE = 32;
    static final byte CHECKPOINT = 1;
    static final byte CUT = 2;
    static final byte SEGMENT = 3;
    static final byte TOUCH = 4;
    static final byte DROP = 5;
    /** Bytes of a write time at the start of a segment's or a touch's document. */
    static final int TIME_SIZE = 12;

    static final int HEADER_SIZE = 23;
    static final int TRAILER_SIZE = 4;
    /** Longest checkpoint id in UTF-8 a header may announce: 256 UTF-16 characters take at most 768 bytes. */
    static final int MAX_ID_BYTES = 1024;

    private JournalFormat() {}

    /** A file header with a new random generation. */
    static byte[] fileHeader() {
        var random = java.util.concurrent.ThreadLocalRandom.current();
        ByteBuffer buffer = ByteBuffer.allocate(FILE_HEADER_SIZE);
        buffer.putInt(FILE_MAGIC)
                .putInt(FILE_FORMAT)
                .putLong(random.nextLong())
                .putLong(random.nextLong())
                .putInt(0);
        buffer.putInt(crc(buffer.array(), 0, FILE_HEADER_SIZE - 4));
        return buffer.array();
    }

    /**
     * The generation in a file header, as a string; {@code null} when {@code bytes} holds no file header of a format
     * this reader knows.
     */
    static String generation(byte[] bytes) {
        if (format(bytes) < 0) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 8, 16);
        return Long.toHexString(buffer.getLong()) + Long.toHexString(buffer.getLong());
    }

    /** The format version in a file header; {@code -1} when it is no file header of a format this reader knows. */
    static int format(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, FILE_HEADER_SIZE);
        int format = buffer.getInt(4);
        if (buffer.getInt(0) != FILE_MAGIC
                || format < 1
                || format > FILE_FORMAT
                || buffer.getInt(FILE_HEADER_SIZE - 4) != crc(bytes, 0, FILE_HEADER_SIZE - 4)) {
            return -1;
        }
        return format;
    }

    /** The record of a checkpoint. */
    static byte[] checkpoint(long version, String checkpointId, byte[] document) {
        return record(CHECKPOINT, version, checkpointId.getBytes(StandardCharsets.UTF_8), document);
    }

    /** The record deleting every checkpoint below {@code version}. */
    static byte[] cut(long version) {
        return record(CUT, version, new byte[0], new byte[0]);
    }

    /** The record of a history segment written at {@code writtenAt}. */
    static byte[] segment(String segmentId, Instant writtenAt, byte[] content) {
        return record(SEGMENT, 0, segmentId.getBytes(StandardCharsets.UTF_8), writtenAt, content);
    }

    /** The record of a segment written again at {@code writtenAt}: its bytes stay, its write time moves. */
    static byte[] touch(String segmentId, Instant writtenAt) {
        return record(TOUCH, 0, segmentId.getBytes(StandardCharsets.UTF_8), writtenAt, new byte[0]);
    }

    /** The record deleting a segment. */
    static byte[] drop(String segmentId) {
        return record(DROP, 0, segmentId.getBytes(StandardCharsets.UTF_8), null, new byte[0]);
    }

    private static byte[] record(byte kind, long version, byte[] id, byte[] document) {
        return record(kind, version, id, null, document);
    }

    /**
     * A record whose document is {@code writtenAt} (when not {@code null}) followed by {@code body}, built in place.
     */
    private static byte[] record(byte kind, long version, byte[] id, Instant writtenAt, byte[] body) {
        int documentLength = (writtenAt == null ? 0 : TIME_SIZE) + body.length;
        ByteBuffer buffer = ByteBuffer.allocate(HEADER_SIZE + id.length + documentLength + TRAILER_SIZE);
        buffer.putInt(MAGIC)
                .put(kind)
                .putLong(version)
                .putShort((short) id.length)
                .putInt(documentLength);
        buffer.putInt(crc(buffer.array(), 0, HEADER_SIZE - 4));
        buffer.put(id);
        if (writtenAt != null) {
            buffer.putLong(writtenAt.getEpochSecond()).putInt(writtenAt.getNano());
        }
        buffer.put(body);
        var crc = new CRC32C();
        crc.update(buffer.array(), HEADER_SIZE, id.length + documentLength);
        buffer.putInt((int) crc.getValue());
        return buffer.array();
    }

    /**
     * The header at the start of {@code bytes}; {@code null} when it is not one (wrong magic or kind, checksum
     * mismatch, lengths out of range).
     */
    static Header header(byte[] bytes, int offset) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, HEADER_SIZE);
        if (buffer.getInt() != MAGIC) {
            return null;
        }
        byte kind = buffer.get();
        long version = buffer.getLong();
        int idLength = Short.toUnsignedInt(buffer.getShort());
        int documentLength = buffer.getInt();
        int checksum = buffer.getInt();
        if (checksum != crc(bytes, offset, HEADER_SIZE - 4)
                || kind < CHECKPOINT
                || kind > DROP
                || version < 0
                || ((kind == SEGMENT || kind == TOUCH) && documentLength < TIME_SIZE)
                || idLength > MAX_ID_BYTES
                || documentLength < 0) {
            return null;
        }
        return new Header(kind, version, idLength, documentLength);
    }

    /** Whether the trailing checksum of the whole record in {@code bytes} matches its id and document. */
    static boolean bodyIntact(byte[] record, Header header) {
        int bodyLength = header.idLength() + header.documentLength();
        int stored =
                ByteBuffer.wrap(record, HEADER_SIZE + bodyLength, TRAILER_SIZE).getInt();
        return stored == crc(record, HEADER_SIZE, bodyLength);
    }

    private static int crc(byte[] bytes, int offset, int length) {
        var crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /**
     * A record's header.
     *
     * @param kind {@link #CHECKPOINT}, {@link #CUT}, {@link #SEGMENT}, {@link #TOUCH} or {@link #DROP}
     * @param version the checkpoint's version, or the cut's bound
     * @param idLength bytes of the checkpoint or segment id
     * @param documentLength bytes of the document
     */
    record Header(byte kind, long version, int idLength, int documentLength) {
        /** The whole record's size in the file. */
        long size() {
            return (long) HEADER_SIZE + idLength + documentLength + TRAILER_SIZE;
        }

        /** The checkpoint or segment id in {@code bytes} holding the record from its start, at least up to the id. */
        String checkpointId(byte[] record) {
            return new String(record, HEADER_SIZE, idLength, StandardCharsets.UTF_8);
        }

        /** Whether the record names a segment (a segment, a touch or a drop). */
        boolean isSegment() {
            return kind == SEGMENT || kind == TOUCH || kind == DROP;
        }

        /** The write time of a segment or a touch in {@code bytes} holding the record from its start, past the time. */
        Instant writtenAt(byte[] record) {
            ByteBuffer buffer = ByteBuffer.wrap(record, HEADER_SIZE + idLength, TIME_SIZE);
            long seconds = buffer.getLong();
            int nanos = buffer.getInt();
            // a time out of Instant's range is damage the checksums did not catch; the earliest time lets it be
            // collected
            return nanos < 0
                            || nanos > 999_999_999
                            || seconds < Instant.MIN.getEpochSecond()
                            || seconds > Instant.MAX.getEpochSecond()
                    ? Instant.MIN
                    : Instant.ofEpochSecond(seconds, nanos);
        }

        /** The bytes of a segment in a record read whole. */
        byte[] segmentContent(byte[] record) {
            return java.util.Arrays.copyOfRange(
                    record, HEADER_SIZE + idLength + TIME_SIZE, HEADER_SIZE + idLength + documentLength);
        }

        /** The document in a record read whole. */
        byte[] document(byte[] record) {
            return java.util.Arrays.copyOfRange(
                    record, HEADER_SIZE + idLength, HEADER_SIZE + idLength + documentLength);
        }
    }
}
