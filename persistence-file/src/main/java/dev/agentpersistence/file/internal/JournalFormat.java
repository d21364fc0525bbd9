package dev.agentpersistence.file.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The format of an agent's journal ({@code <agent>/.journal}): a file header, then records appended one after the
 * other, each complete in itself, so a reader finds every record from the file alone.
 *
 * <p>The file header ({@value #FILE_HEADER_SIZE} bytes): magic "APJF", the format version (1), a random generation of
 * 16 bytes, 4 reserved bytes, and the CRC-32C of the 28 bytes before it. A journal replaced by compaction gets a new
 * generation, so a reader that kept an index of the old file notices, even when the file system reuses the old file's
 * identity for the new one.
 *
 * <p>A record:
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "APJ1"
 *      4     1  kind: 1 = checkpoint, 2 = cut (the checkpoints below {@code version} are deleted)
 *      5     8  version
 *     13     2  length of the checkpoint id in UTF-8 (0 for a cut)
 *     15     4  length of the document (0 for a cut)
 *     19     4  CRC-32C of bytes 0–18
 *     23     n  checkpoint id (UTF-8), then the document
 *   23+n     4  CRC-32C of the id and the document
 * </pre>
 *
 * All numbers are big-endian. The header's own checksum lets a reader trust the lengths before it reads anything they
 * announce; the trailing checksum tells a complete record from a torn one.
 */
final class JournalFormat {
    static final int MAGIC = 0x41504A31;
    static final int FILE_MAGIC = 0x41504A46;
    static final int FILE_FORMAT = 1;
    static final int FILE_HEADER_SIZE = 32;
    static final byte CHECKPOINT = 1;
    static final byte CUT = 2;
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
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, FILE_HEADER_SIZE);
        if (buffer.getInt() != FILE_MAGIC
                || buffer.getInt() != FILE_FORMAT
                || buffer.getInt(FILE_HEADER_SIZE - 4) != crc(bytes, 0, FILE_HEADER_SIZE - 4)) {
            return null;
        }
        return Long.toHexString(buffer.getLong()) + Long.toHexString(buffer.getLong());
    }

    /** The record of a checkpoint. */
    static byte[] checkpoint(long version, String checkpointId, byte[] document) {
        return record(CHECKPOINT, version, checkpointId.getBytes(StandardCharsets.UTF_8), document);
    }

    /** The record deleting every checkpoint below {@code version}. */
    static byte[] cut(long version) {
        return record(CUT, version, new byte[0], new byte[0]);
    }

    private static byte[] record(byte kind, long version, byte[] id, byte[] document) {
        ByteBuffer buffer = ByteBuffer.allocate(HEADER_SIZE + id.length + document.length + TRAILER_SIZE);
        buffer.putInt(MAGIC)
                .put(kind)
                .putLong(version)
                .putShort((short) id.length)
                .putInt(document.length);
        buffer.putInt(crc(buffer.array(), 0, HEADER_SIZE - 4));
        buffer.put(id).put(document);
        var body = new CRC32C();
        body.update(buffer.array(), HEADER_SIZE, id.length + document.length);
        buffer.putInt((int) body.getValue());
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
                || (kind != CHECKPOINT && kind != CUT)
                || version < 0
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
     * @param kind {@link #CHECKPOINT} or {@link #CUT}
     * @param version the checkpoint's version, or the cut's bound
     * @param idLength bytes of the checkpoint id
     * @param documentLength bytes of the document
     */
    record Header(byte kind, long version, int idLength, int documentLength) {
        /** The whole record's size in the file. */
        long size() {
            return (long) HEADER_SIZE + idLength + documentLength + TRAILER_SIZE;
        }

        /** The checkpoint id in a record read whole. */
        String checkpointId(byte[] record) {
            return new String(record, HEADER_SIZE, idLength, StandardCharsets.UTF_8);
        }

        /** The document in a record read whole. */
        byte[] document(byte[] record) {
            return java.util.Arrays.copyOfRange(
                    record, HEADER_SIZE + idLength, HEADER_SIZE + idLength + documentLength);
        }
    }
}
