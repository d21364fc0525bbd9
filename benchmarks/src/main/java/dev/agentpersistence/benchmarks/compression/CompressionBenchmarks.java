package dev.agentpersistence.benchmarks.compression;

import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.codec.CheckpointCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Compression candidates for the stored form on the benchmark checkpoint's JSON document: time to compress and
 * decompress it. {@link CompressionSizesMain} prints the sizes they reach.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompressionBenchmarks {
    @Param({"10", "1000"})
    public int messages;

    @Param({
        "deflate-1",
        "lz4-java",
        "lz4-java-safe",
        "lz4-aircompressor",
        "zstd-jni-1",
        "zstd-jni-3",
        "zstd-aircompressor"
    })
    public String algorithm;

    private CompressionCandidate candidate;
    private byte[] document;
    private byte[] compressed;

    @Setup(Level.Trial)
    public void prepare() {
        candidate = CompressionCandidate.of(algorithm);
        document = documentOf(messages);
        compressed = candidate.compress(document);
    }

    /** The fixture checkpoint's JSON document with {@code messages} messages. */
    static byte[] documentOf(int messages) {
        return CheckpointCodec.json()
                .encode(Fixtures.checkpoint("compress-" + messages, 9, Fixtures.history(messages)));
    }

    @Benchmark
    public byte[] compress() {
        return candidate.compress(document);
    }

    @Benchmark
    public byte[] decompress() {
        return candidate.decompress(compressed, document.length);
    }
}
