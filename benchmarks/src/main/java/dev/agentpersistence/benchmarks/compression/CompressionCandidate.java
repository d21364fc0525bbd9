package dev.agentpersistence.benchmarks.compression;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Factory;

/**
 * A compression algorithm and library measured for the stored form's compression layer. Each compresses a whole
 * document into one block and decompresses into an array of the known length, as the layer does.
 */
public enum CompressionCandidate {
    /** java.util.zip at level 1: the layer's format until now. */
    DEFLATE_1("deflate-1") {
        @Override
        public byte[] compress(byte[] in) {
            var deflater = new Deflater(1);
            try {
                deflater.setInput(in);
                deflater.finish();
                byte[] out = new byte[in.length + 64];
                int n = 0;
                while (!deflater.finished()) {
                    n += deflater.deflate(out, n, out.length - n);
                }
                return Arrays.copyOf(out, n);
            } finally {
                deflater.end();
            }
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            var inflater = new Inflater();
            try {
                inflater.setInput(in);
                byte[] out = new byte[length];
                int n = 0;
                while (n < length) {
                    n += inflater.inflate(out, n, length - n);
                }
                return out;
            } catch (DataFormatException e) {
                throw new IllegalStateException(e);
            } finally {
                inflater.end();
            }
        }
    },
    /** lz4-java, the fastest implementation it finds (JNI where its native library loads). */
    LZ4_JAVA("lz4-java") {
        @Override
        public byte[] compress(byte[] in) {
            return LZ4Factory.fastestInstance().fastCompressor().compress(in);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return LZ4Factory.fastestInstance().safeDecompressor().decompress(in, length);
        }
    },
    /** lz4-java's pure-Java safe implementation (no JNI, no Unsafe). */
    LZ4_JAVA_SAFE("lz4-java-safe") {
        @Override
        public byte[] compress(byte[] in) {
            return LZ4Factory.safeInstance().fastCompressor().compress(in);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return LZ4Factory.safeInstance().safeDecompressor().decompress(in, length);
        }
    },
    /** aircompressor's pure-Java LZ4. */
    LZ4_AIRCOMPRESSOR("lz4-aircompressor") {
        @Override
        public byte[] compress(byte[] in) {
            return airCompress(new Lz4Compressor(), in);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return airDecompress(new Lz4Decompressor(), in, length);
        }
    },
    /** zstd-jni (native) at level 1. */
    ZSTD_JNI_1("zstd-jni-1") {
        @Override
        public byte[] compress(byte[] in) {
            return Zstd.compress(in, 1);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return Zstd.decompress(in, length);
        }
    },
    /** zstd-jni (native) at level 3, zstd's default. */
    ZSTD_JNI_3("zstd-jni-3") {
        @Override
        public byte[] compress(byte[] in) {
            return Zstd.compress(in, 3);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return Zstd.decompress(in, length);
        }
    },
    /** aircompressor's pure-Java zstd (its one level, about zstd's 3). */
    ZSTD_AIRCOMPRESSOR("zstd-aircompressor") {
        @Override
        public byte[] compress(byte[] in) {
            return airCompress(new ZstdCompressor(), in);
        }

        @Override
        public byte[] decompress(byte[] in, int length) {
            return airDecompress(new ZstdDecompressor(), in, length);
        }
    };

    private final String label;

    CompressionCandidate(String label) {
        this.label = label;
    }

    /** The name used in benchmark parameters and tables. */
    public String label() {
        return label;
    }

    /** {@code in} compressed into one block. */
    public abstract byte[] compress(byte[] in);

    /** The {@code length} bytes that {@link #compress} turned into {@code in}. */
    public abstract byte[] decompress(byte[] in, int length);

    /** The candidate of a label. */
    public static CompressionCandidate of(String label) {
        for (var candidate : values()) {
            if (candidate.label.equals(label)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("no compression candidate '" + label + "'");
    }

    private static byte[] airCompress(Compressor compressor, byte[] in) {
        byte[] out = new byte[compressor.maxCompressedLength(in.length)];
        int n = compressor.compress(in, 0, in.length, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }

    private static byte[] airDecompress(Decompressor decompressor, byte[] in, int length) {
        byte[] out = new byte[length];
        int n = decompressor.decompress(in, 0, in.length, out, 0, length);
        if (n != length) {
            throw new IllegalStateException(n + " bytes came out, not " + length);
        }
        return out;
    }
}
