package dev.agentpersistence.codec;

import dev.agentpersistence.CorruptCheckpointException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Deflate in the compression layer of {@link DocumentLayers} ({@link CompressionLayer}): a header naming the
 * uncompressed length, then a zlib stream (RFC 1950: deflate data and an Adler-32 of the uncompressed bytes).
 *
 * <pre>
 * A9 'A' 'P' 'Z' | 01 (deflate) | uncompressed length (4 bytes, big-endian) | zlib stream
 * </pre>
 *
 * Inflation is bounded: the declared length must be within the caller's limit and within what the compressed bytes can
 * hold (deflate expands at most 1032:1), exactly that many bytes must come out, and the stream must end at the last
 * stored byte. So a hostile or damaged document allocates at most its declared, bounded length. Stateless; a
 * {@link Deflater}/{@link Inflater} per call.
 */
final class DeflateLayer {
    /** The format byte after {@link CompressionLayer#MAGIC}. */
    static final int VERSION = 1;
    /** Magic, version, 4-byte length. */
    static final int HEADER = CompressionLayer.MAGIC.length + 1 + Integer.BYTES;
    /** Deflate's largest expansion: a 258-byte match in 2 bits. */
    static final long MAX_RATIO = 1032;

    private DeflateLayer() {}

    /**
     * {@code document} compressed at {@code level}, or {@code null} when the result would not be smaller than the
     * document (the caller then stores it as it is).
     */
    static byte[] compress(byte[] document, int level) {
        if (document.length > CompressionLayer.MAX_LENGTH || document.length <= HEADER) {
            return null;
        }
        var deflater = new Deflater(level);
        try {
            byte[] out = deflate(deflater, document, HEADER);
            if (out == null) {
                return null;
            }
            System.arraycopy(CompressionLayer.MAGIC, 0, out, 0, CompressionLayer.MAGIC.length);
            out[CompressionLayer.MAGIC.length] = (byte) VERSION;
            Bytes.writeInt(out, CompressionLayer.MAGIC.length + 1, document.length);
            return out;
        } finally {
            deflater.end();
        }
    }

    /**
     * {@code input} through {@code deflater} after {@code header} bytes left free for the caller, or {@code null} when
     * header and data would not be smaller than the input.
     */
    static byte[] deflate(Deflater deflater, byte[] input, int header) {
        if (input.length <= header) {
            return null;
        }
        // Output is only kept when smaller than the input, so an input-sized buffer is enough.
        byte[] out = new byte[input.length - 1];
        deflater.setInput(input);
        deflater.finish();
        int end = header;
        while (!deflater.finished() && end < out.length) {
            end += deflater.deflate(out, end, out.length - end);
        }
        return deflater.finished() ? Arrays.copyOf(out, end) : null;
    }

    /**
     * The document inside a deflate payload (its format byte already read as {@value #VERSION}).
     *
     * @param limit the largest uncompressed length accepted (at most {@link #CompressionLayer.MAX_LENGTH})
     * @param limitLabel what the limit is, for the message when a document declares more
     * @throws CorruptCheckpointException naming {@code where} when the header or the stream is damaged, or the declared
     *     length is over the limit or is not what comes out
     */
    static byte[] inflate(byte[] payload, CheckpointLocation where, long limit, String limitLabel) {
        if (payload.length < HEADER) {
            throw where.corrupt("the compressed document is truncated (no header)", null);
        }
        long declared = Integer.toUnsignedLong(Bytes.readInt(payload, CompressionLayer.MAGIC.length + 1));
        long compressed = payload.length - HEADER;
        CompressionLayer.checkDeclaredLength(declared, compressed, MAX_RATIO, where, limit, limitLabel);
        var inflater = new Inflater();
        try {
            inflater.setInput(payload, HEADER, (int) compressed);
            return inflate(inflater, declared, where);
        } finally {
            inflater.end();
        }
    }

    /**
     * Exactly {@code declared} bytes (already checked against the caller's limits) out of {@code inflater}, whose
     * stream must end at its last input byte.
     *
     * @throws CorruptCheckpointException naming {@code where} when the stream is damaged, truncated, or holds more or
     *     fewer bytes
     */
    static byte[] inflate(Inflater inflater, long declared, CheckpointLocation where) {
        byte[] out = new byte[(int) declared];
        try {
            int filled = 0;
            while (filled < out.length) {
                long consumed = inflater.getBytesRead();
                int n = inflater.inflate(out, filled, out.length - filled);
                if (n == 0 && inflater.finished()) {
                    throw where.corrupt(
                            "the compressed document holds " + filled + " bytes, fewer than the " + declared
                                    + " it declares",
                            null);
                }
                if (n == 0
                        && (inflater.needsInput()
                                || inflater.needsDictionary()
                                || inflater.getBytesRead() == consumed)) {
                    throw where.corrupt(
                            "the compressed document is truncated: " + filled + " of the " + declared
                                    + " bytes it declares came out",
                            null);
                }
                filled += n;
            }
            expectEnd(inflater, where, declared);
            return out;
        } catch (DataFormatException e) {
            throw where.corrupt("the compressed data is damaged (" + e.getMessage() + ")", e);
        }
    }

    /** After the declared bytes: the stream must end (checksum verified) with no stored byte left over. */
    private static void expectEnd(Inflater inflater, CheckpointLocation where, long declared)
            throws DataFormatException {
        byte[] probe = new byte[1];
        while (!inflater.finished()) {
            long consumed = inflater.getBytesRead();
            if (inflater.inflate(probe) > 0) {
                throw where.corrupt(
                        "the compressed document holds more than the " + declared + " bytes it declares", null);
            }
            if (inflater.needsInput() || inflater.needsDictionary() || inflater.getBytesRead() == consumed) {
                throw where.corrupt("the compressed document is truncated (the stream does not end)", null);
            }
        }
        if (inflater.getRemaining() > 0) {
            throw where.corrupt(inflater.getRemaining() + " bytes follow the end of the compressed stream", null);
        }
    }
}
