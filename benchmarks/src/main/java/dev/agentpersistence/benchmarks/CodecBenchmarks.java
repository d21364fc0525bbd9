package dev.agentpersistence.benchmarks;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;
import java.util.Map;
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
 * The JSON codec alone on the benchmark checkpoint: the part of a save or a read that every provider (except in-memory)
 * pays on top of its backend call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CodecBenchmarks {
    @Param({"10", "1000"})
    public int messages;

    /**
     * {@code json}: the JSON codec alone; {@code stored}: JSON with the default layers (checksum, LZ4 from 4 KiB);
     * {@code stored-deflate}: the same with deflate level 1, the default before LZ4.
     */
    @Param({"json", "stored", "stored-deflate"})
    public String layers;

    /**
     * {@code ascii}: the fixture's English prose; {@code japanese}: the same messages in Japanese text; {@code lines}:
     * the prose with a line break every 60 characters.
     */
    @Param({"ascii"})
    public String text;

    private CheckpointCodec codec;
    private AgentCheckpoint checkpoint;
    private byte[] document;
    private CheckpointLocation location;

    @Setup(Level.Trial)
    public void prepare() {
        String agentId = "read-10x" + messages;
        codec = switch (layers) {
            case "json" -> CheckpointCodec.json();
            case "stored" -> BenchmarkedForm.codec();
            case "stored-deflate" ->
                CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.COMPRESSION.key(), "deflate")));
            default -> throw new IllegalArgumentException("layers " + layers);
        };
        List<Message> history = switch (text) {
            case "ascii" -> Fixtures.history(messages);
            case "japanese" -> Fixtures.japaneseHistory(messages);
            case "lines" -> Fixtures.multiLineHistory(messages);
            default -> throw new IllegalArgumentException("text " + text);
        };
        checkpoint = Fixtures.checkpoint(agentId, 9, history);
        document = codec.encode(checkpoint);
        location = new CheckpointLocation(agentId, checkpoint.checkpointId(), "benchmark");
    }

    @Benchmark
    public byte[] encode() {
        return codec.encode(checkpoint);
    }

    @Benchmark
    public AgentCheckpoint decode() {
        return codec.decode(document, location);
    }
}
