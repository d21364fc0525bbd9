package dev.agentpersistence.benchmarks;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.backend.Disks;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.benchmarks.raw.RawStore;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * The baseline: each backend's own client writing or reading, in one call, exactly the bytes our provider stores for
 * the latest checkpoint of the {@code 10x<messages>} agent of {@link ProviderBenchmarks} (its stored document: JSON
 * with the default layers, see {@code BenchmarkedForm}). Writes go to new keys, removed after each iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RawBenchmarks {
    @Param({"inmemory", "file", "file-nofsync", "sqlite", "postgresql", "mariadb", "redis", "s3"})
    public String backend;

    @Param({"10", "1000"})
    public int messages;

    private RawStore store;
    private byte[] document;
    private final List<String> written = new ArrayList<>();
    private long next;

    @Setup(Level.Trial)
    public void open() {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        String agentId = "read-10x" + messages;
        document = BenchmarkedForm.codec().encode(Fixtures.checkpoint(agentId, 9, Fixtures.history(messages)));
        store = Backend.of(backend).driver().openRaw(settings, ProviderBenchmarks.NAMESPACE);
        String readKey = readKey();
        try {
            store.read(readKey);
        } catch (RuntimeException absent) {
            store.write(readKey, document);
        }
        next = System.nanoTime(); // distinct keys across forks of one run
        Disks.flush();
    }

    @TearDown(Level.Iteration)
    public void removeWritten() {
        store.delete(written);
        written.clear();
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    @Benchmark
    public void write() {
        String key = "w-" + messages + "-" + next++;
        store.write(key, document);
        written.add(key);
    }

    @Benchmark
    public byte[] read() {
        return store.read(readKey());
    }

    private String readKey() {
        return "doc-" + messages;
    }
}
