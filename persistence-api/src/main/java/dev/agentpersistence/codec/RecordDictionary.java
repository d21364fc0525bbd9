package dev.agentpersistence.codec;

import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Deflate against a dictionary built into the library, in the compression layer of {@link DocumentLayers}
 * ({@link CompressionLayer}): for checkpoint records of a few hundred bytes whose history is stored elsewhere, which
 * repeat the field names and the history descriptor of every record but are too short to find those repeats in
 * themselves.
 *
 * <pre>
 * A9 'A' 'P' 'Z' | 03 (deflate against dictionary 1) | uncompressed length (4 bytes, big-endian)
 *     | CRC32C of the uncompressed bytes (4 bytes) | raw deflate data (RFC 1951) with {@link #DICTIONARY} as preset
 *     dictionary
 * </pre>
 *
 * The dictionary of format {@value #FORMAT} never changes; another dictionary would be another format byte. Inflation
 * is bounded as {@link DeflateLayer}'s is, and the output is checked against the stored CRC32C. Stateless.
 */
final class RecordDictionary {
    /** The format byte after {@link CompressionLayer#MAGIC}. */
    static final int FORMAT = 3;
    /** Magic, format, 4-byte length, 4-byte CRC32C. */
    static final int HEADER = CompressionLayer.MAGIC.length + 1 + 2 * Integer.BYTES;
    /** The level: records are short, so the slowest search costs little. */
    private static final int LEVEL = Deflater.BEST_COMPRESSION;
    /** What records share, the most common last (deflate prefers near matches). */
    private static final byte[] DICTIONARY = String.join(
                    "",
                    "\"lastInput\":\"lastInputType\":\"java.lang.String\",\"state\":{\"\":\"\"},",
                    "\"conversation.window\":\"0-1,\",\"nodeId\":\"node-step-conversation\",",
                    "\"parentCheckpointId\":\"-4-a-8-9-b-\",",
                    "\"metadata\":{\"__agent-persistence.history\":\"{\\\"format\\\":2,\\\"size\\\":,",
                    "\\\"log\\\":\\\"\\\"}\"},\"state\":{},\"messageHistory\":[]}{\"formatVersion\":2,",
                    "\"checkpointId\":\"\",\"agentId\":\"\",\"version\":,",
                    "\"createdAt\":\"2026-12-03T00:00:00.000000000Z\",\"nodeId\":\"\",",
                    "\"parentCheckpointId\":\"\",",
                    "\"metadata\":{\"__agent-persistence.history\":\"{\\\"format\\\":2,\\\"size\\\":")
            .getBytes(StandardCharsets.US_ASCII);

    private RecordDictionary() {}

    /** {@code document} deflated against the dictionary, or {@code null} when that would not make it smaller. */
    static byte[] compress(byte[] document) {
        if (document.length > CompressionLayer.MAX_LENGTH) {
            return null;
        }
        var deflater = new Deflater(LEVEL, true);
        try {
            deflater.setDictionary(DICTIONARY);
            byte[] out = DeflateLayer.deflate(deflater, document, HEADER);
            if (out == null) {
                return null;
            }
            System.arraycopy(CompressionLayer.MAGIC, 0, out, 0, CompressionLayer.MAGIC.length);
            out[CompressionLayer.MAGIC.length] = (byte) FORMAT;
            Bytes.writeInt(out, CompressionLayer.MAGIC.length + 1, document.length);
            Bytes.writeInt(out, CompressionLayer.MAGIC.length + 5, Lz4Layer.crc32c(document, document.length));
            return out;
        } finally {
            deflater.end();
        }
    }

    /** The document inside a payload of this format starting at {@code start} of {@code stored}. */
    static byte[] inflate(byte[] stored, int start, CheckpointLocation where, long limit, String limitLabel) {
        if (stored.length - start < HEADER) {
            throw where.corrupt("the compressed document is truncated (no header)", null);
        }
        long declared = Integer.toUnsignedLong(Bytes.readInt(stored, start + CompressionLayer.MAGIC.length + 1));
        int data = start + HEADER;
        CompressionLayer.checkDeclaredLength(
                declared, stored.length - data, DeflateLayer.MAX_RATIO, where, limit, limitLabel);
        var inflater = new Inflater(true);
        try {
            inflater.setDictionary(DICTIONARY);
            inflater.setInput(stored, data, stored.length - data);
            byte[] out = DeflateLayer.inflate(inflater, declared, where);
            Lz4Layer.verifyCrc(out, Bytes.readInt(stored, start + CompressionLayer.MAGIC.length + 5), where);
            return out;
        } finally {
            inflater.end();
        }
    }
}
