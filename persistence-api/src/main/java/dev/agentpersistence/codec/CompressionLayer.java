package dev.agentpersistence.codec;

import dev.agentpersistence.CorruptCheckpointException;
import java.util.Arrays;

/**
 * The compression layer of {@link DocumentLayers}: the magic {@code A9 'A' 'P' 'Z'}, then a format byte naming the
 * algorithm ({@value DeflateLayer#VERSION}: {@link DeflateLayer deflate}, {@value Lz4Layer#FORMAT}: {@link Lz4Layer
 * LZ4}, {@value RecordDictionary#FORMAT}: {@link RecordDictionary deflate against the record dictionary}), then that
 * algorithm's header and data. Writing uses the configured algorithm; reading follows the format byte, so every
 * algorithm is read whatever is configured.
 */
final class CompressionLayer {
    /** The first bytes of a compressed document. */
    static final byte[] MAGIC = {(byte) 0xA9, 'A', 'P', 'Z'};
    /** The largest uncompressed length ever written or read: the largest byte array a JVM allocates. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private CompressionLayer() {}

    /** Whether {@code bytes} holds the compression layer's magic at {@code start}. */
    static boolean isCompressed(byte[] bytes, int start) {
        return bytes.length - start >= MAGIC.length
                && Arrays.equals(bytes, start, start + MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /**
     * {@code document} compressed with {@code algorithm} ({@code level} is deflate's), or {@code null} when that would
     * not make it smaller.
     */
    static byte[] compress(byte[] document, CompressionAlgorithm algorithm, int level) {
        return switch (algorithm) {
            case LZ4 -> Lz4Layer.compress(document);
            case DEFLATE -> DeflateLayer.compress(document, level);
        };
    }

    /**
     * Refuses a declared uncompressed length over the caller's limit, or over what {@code compressed} bytes of an
     * algorithm expanding at most {@code maxRatio}:1 can hold, before anything is allocated.
     *
     * @throws CorruptCheckpointException naming {@code where}
     */
    static void checkDeclaredLength(
            long declared, long compressed, long maxRatio, CheckpointLocation where, long limit, String limitLabel) {
        if (declared > limit) {
            throw where.corrupt(
                    "the compressed document declares " + declared + " bytes uncompressed, over " + limitLabel + " of "
                            + limit + " bytes",
                    null);
        }
        if (declared > compressed * maxRatio) {
            throw where.corrupt(
                    "the compressed document declares " + declared + " bytes uncompressed, more than its " + compressed
                            + " compressed bytes can hold (the document is truncated or its header altered)",
                    null);
        }
    }

    /**
     * The document inside the compressed payload that starts at {@code start} of {@code stored}, at most {@code limit}
     * bytes long.
     *
     * @param verified whether a checksum layer already verified the compressed bytes
     * @throws CorruptCheckpointException naming {@code where} when the format byte is unknown or the algorithm's header
     *     or data is damaged, truncated or over the limit
     */
    static byte[] decompress(
            byte[] stored, int start, boolean verified, CheckpointLocation where, long limit, String limitLabel) {
        if (stored.length - start <= MAGIC.length) {
            throw where.corrupt("the compressed document is truncated (no header)", null);
        }
        int format = stored[start + MAGIC.length] & 0xFF;
        return switch (format) {
            case DeflateLayer.VERSION ->
                DeflateLayer.inflate(
                        start == 0 ? stored : Arrays.copyOfRange(stored, start, stored.length),
                        where,
                        limit,
                        limitLabel);
            case Lz4Layer.FORMAT -> Lz4Layer.decompress(stored, start, verified, where, limit, limitLabel);
            case RecordDictionary.FORMAT -> RecordDictionary.inflate(stored, start, where, limit, limitLabel);
            default ->
                throw where.corrupt(
                        "compression layer version " + format + " is not one this library reads ("
                                + DeflateLayer.VERSION + ": deflate, " + Lz4Layer.FORMAT + ": LZ4, "
                                + RecordDictionary.FORMAT + ": deflate against the record dictionary)",
                        null);
        };
    }
}
