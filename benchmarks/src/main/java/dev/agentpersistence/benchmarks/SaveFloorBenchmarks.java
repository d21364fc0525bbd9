package dev.agentpersistence.benchmarks;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.fixture.TextSource;
import dev.agentpersistence.codec.CheckpointCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What one step of the peer workload (two new messages of 1 KiB) costs at least in a store that keeps the stored form's
 * checks, against what a store that keeps a reference does: the two messages encoded in the stored form (JSON,
 * checksum, LZ4), their SHA-256 (the hash chain a reader verifies), and a reference put into a concurrent map, as
 * LangGraph4j's {@code MemorySaver} does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SaveFloorBenchmarks {
    private final ConcurrentHashMap<String, AgentCheckpoint> references = new ConcurrentHashMap<>();
    private CheckpointCodec codec;
    private AgentCheckpoint step;
    private byte[] text;
    private long version;

    @Setup(Level.Trial)
    public void prepare() {
        var source = new TextSource(7);
        List<Message> added = List.of(Message.user(source.next(1024)), Message.assistant(source.next(1024)));
        codec = BenchmarkedForm.codec();
        step = AgentCheckpoint.builder()
                .checkpointId("step")
                .agentId("floor")
                .version(1)
                .createdAt(Instant.parse("2026-12-03T00:00:00Z"))
                .nodeId("act")
                .messageHistory(added)
                .build();
        text = (added.get(0).content() + added.get(1).content()).getBytes(StandardCharsets.UTF_8);
    }

    /** The two messages in the stored form: JSON, checksum and LZ4 (the store's default layers). */
    @Benchmark
    public byte[] encodeStep() {
        return codec.encode(step);
    }

    /** The SHA-256 of the two messages' text. */
    @Benchmark
    public byte[] hashStep() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(text);
    }

    /** A reference put, what a store that keeps the caller's object does per save. */
    @Benchmark
    public AgentCheckpoint keepReference() {
        return references.put("floor-" + (version++ & 1023), step);
    }
}
