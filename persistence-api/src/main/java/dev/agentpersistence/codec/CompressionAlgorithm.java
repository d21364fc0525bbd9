package dev.agentpersistence.codec;

/**
 * How {@link DocumentLayers} compresses new documents. Every algorithm here is read whatever is configured: the stored
 * document names the one it was written with.
 */
public enum CompressionAlgorithm {
    /**
     * LZ4 block compression with a CRC32C of the uncompressed bytes: about 6 times as fast as deflate level 1 to
     * compress and 9 times to decompress, for about two fifths more bytes on conversation-like JSON. Builds of this
     * library that only know deflate cannot read it: write {@link #DEFLATE} during a rolling upgrade from one.
     */
    LZ4,
    /** Deflate (a zlib stream with its Adler-32) at the configured level: the smaller, slower choice. */
    DEFLATE
}
