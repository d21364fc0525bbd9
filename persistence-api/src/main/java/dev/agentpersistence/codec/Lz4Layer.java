package dev.agentpersistence.codec;

import dev.agentpersistence.CorruptCheckpointException;
import java.util.Arrays;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 in the compression layer of {@link DocumentLayers}: a header naming the uncompressed length and its CRC32C, then
 * one LZ4 block.
 *
 * <pre>
 * A9 'A' 'P' 'Z' | 02 (LZ4) | uncompressed length (4 bytes, big-endian)
 *                 | CRC32C of the uncompressed bytes (4 bytes) | LZ4 block
 * </pre>
 *
 * An LZ4 block carries no checksum of its own, so the layer adds one: a damaged block that still decompresses to the
 * declared length is caught, as deflate's Adler-32 catches it. Under a checksum layer that already verified the
 * compressed bytes (the default), they are exactly what the writer compressed, so the output's CRC32C is not computed a
 * second time. Decompression is bounded like deflate's ({@link DeflateLayer}): the declared length must be within the
 * caller's limit and within what the block can hold (LZ4 expands at most 255:1), exactly that many bytes must come out
 * of a block that ends at the last stored byte. Uses lz4-java's fastest implementation (native where its library loads,
 * else Java) and only its bounds-checking decompressor.
 */
final class Lz4Layer {
    /** The format byte after the magic. */
    static final int FORMAT = 2;
    /** Magic, format, 4-byte length, 4-byte CRC32C. */
    static final int HEADER = CompressionLayer.MAGIC.length + 1 + Integer.BYTES + Integer.BYTES;
    /** LZ4's largest expansion, rounded up: a match length byte of 255 stands for 255 bytes. */
    private static final long MAX_RATIO = 256;

    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR =
            LZ4Factory.fastestInstance().safeDecompressor();

    private Lz4Layer() {}

    /** {@code document} compressed, or {@code null} when the result would not be smaller than the document. */
    static byte[] compress(byte[] document) {
        if (document.length > CompressionLayer.MAX_LENGTH || document.length <= HEADER) {
            return null;
        }
        byte[] out = new byte[HEADER + COMPRESSOR.maxCompressedLength(document.length)];
        int size = HEADER + COMPRESSOR.compress(document, 0, document.length, out, HEADER, out.length - HEADER);
        if (size >= document.length) {
            return null;
        }
        System.arraycopy(CompressionLayer.MAGIC, 0, out, 0, CompressionLayer.MAGIC.length);
        out[CompressionLayer.MAGIC.length] = (byte) FORMAT;
        Bytes.writeInt(out, CompressionLayer.MAGIC.length + 1, document.length);
        Bytes.writeInt(out, CompressionLayer.MAGIC.length + 5, crc32c(document, document.length));
        return Arrays.copyOf(out, size);
    }

    /**
     * The document inside an LZ4 payload that starts at {@code start} of {@code stored}.
     *
     * @param verified whether a checksum layer already verified these compressed bytes: then they are exactly what the
     *     writer compressed, and the CRC32C of the output is not computed again
     * @param limit the largest uncompressed length accepted
     * @param limitLabel what the limit is, for the message when a document declares more
     * @throws CorruptCheckpointException naming {@code where} when the header or the block is damaged, the declared
     *     length is over the limit or is not what comes out, or the CRC32C does not match
     */
    static byte[] decompress(
            byte[] stored, int start, boolean verified, CheckpointLocation where, long limit, String limitLabel) {
        if (stored.length - start < HEADER) {
            throw where.corrupt("the LZ4-compressed document is truncated (no header)", null);
        }
        long declared = Integer.toUnsignedLong(Bytes.readInt(stored, start + CompressionLayer.MAGIC.length + 1));
        int expectedCrc = Bytes.readInt(stored, start + CompressionLayer.MAGIC.length + 5);
        long compressed = stored.length - start - HEADER;
        CompressionLayer.checkDeclaredLength(declared, compressed, MAX_RATIO, where, limit, limitLabel);
        byte[] out = new byte[(int) declared];
        int produced;
        try {
            produced = DECOMPRESSOR.decompress(stored, start + HEADER, (int) compressed, out, 0, out.length);
        } catch (LZ4Exception e) {
            throw where.corrupt(
                    "the compressed document's LZ4 block is damaged or truncated, or holds more than the " + declared
                            + " bytes it declares (" + e.getMessage() + ")",
                    e);
        }
        if (produced != declared) {
            throw where.corrupt(
                    "the compressed document holds " + produced + " bytes, not the " + declared + " it declares", null);
        }
        if (verified) {
            return out;
        }
        verifyCrc(out, expectedCrc, where);
        return out;
    }

    /**
     * Checks a decompressed document against the CRC32C its header stores.
     *
     * @throws CorruptCheckpointException naming {@code where} when they differ
     */
    static void verifyCrc(byte[] out, int expectedCrc, CheckpointLocation where) {
        int actualCrc = crc32c(out, out.length);
        if (actualCrc != expectedCrc) {
            throw where.corrupt(
                    String.format(
                            "the decompressed document's crc32c %08x is not the stored %08x"
                                    + " (the document was altered)",
                            actualCrc, expectedCrc),
                    null);
        }
    }

    static int crc32c(byte[] bytes, int length) {
        var crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
