package dev.agentpersistence.benchmarks;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Disks;
import dev.agentpersistence.benchmarks.fixture.FixtureLoader;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.benchmarks.fixture.Shape;
import java.util.List;
import java.util.Optional;
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
 * Our providers, one call per operation: save, latest, get by id and a filtered list of 100
 * ({@link Fixtures#LIST_FILTER}), on an agent holding {@code shape} = checkpoints x messages.
 *
 * <p>Saves append to an agent of their own that holds the same number of checkpoints; after each iteration it is
 * trimmed back to its newest {@code checkpoints} (off the clock), so the store stays the same size and memory use stays
 * bounded. A save includes building the {@link AgentCheckpoint}. With {@code history=incremental} the provider is
 * wrapped in incremental history ({@code StorageSettings.incrementalHistory}); every checkpoint of an agent carries the
 * same history, so its segments are stored once and each save writes the checkpoint with its short inline tail (the
 * steady state of a long agent run).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ProviderBenchmarks {
    /** The namespace of these benchmarks' data in each backend. */
    static final String NAMESPACE = "ops";

    /** The provider under test and the agent shape. */
    @State(Scope.Benchmark)
    public static class Target {
        @Param({"inmemory", "file", "file-nofsync", "sqlite", "postgresql", "mariadb", "redis", "s3"})
        public String backend;

        @Param({"10x10", "10x1000", "10000x10"})
        public String shape;

        /** {@code plain}: whole histories in every checkpoint; {@code incremental}: incremental history. */
        @Param({"plain", "incremental"})
        public String history;

        BenchSettings settings;
        BackendDriver driver;
        Shape size;
        List<Message> messages;
        PersistenceStorageProvider<CheckpointFilter> provider;

        @Setup(Level.Trial)
        public void open() {
            settings = BenchSettings.fromSystemProperties();
            driver = Backend.of(backend).driver();
            size = Shape.parse(shape);
            messages = Fixtures.history(size.messages());
            Disks.flush();
            provider = driver.open(settings, NAMESPACE, false, incremental());
        }

        long load(String agentId) {
            long next = FixtureLoader.ensure(
                    provider,
                    () -> driver.keepsDataAcrossJvms()
                            ? driver.open(settings, NAMESPACE, true, incremental())
                            : provider,
                    driver.loadThreads(),
                    agentId,
                    size.checkpoints(),
                    messages);
            driver.afterLoad(settings, NAMESPACE);
            Disks.flush();
            return next;
        }

        boolean incremental() {
            return history.equals("incremental");
        }

        /** The agent name for {@code purpose}, distinct per backend variant, shape and history mode. */
        String agent(String purpose) {
            return purpose + "-" + backend + "-" + shape + "-" + history;
        }

        @TearDown(Level.Trial)
        public void close() {
            provider.close();
        }
    }

    /** An agent holding exactly {@code checkpoints} checkpoints that nothing writes to. */
    @State(Scope.Benchmark)
    public static class Reads {
        String agentId;
        String middleId;

        @Setup(Level.Trial)
        public void load(Target target) {
            agentId = target.agent("read");
            target.load(agentId);
            middleId = Fixtures.checkpointId(target.size.checkpoints() / 2);
        }
    }

    /** An agent the saves append to, trimmed back to {@code checkpoints} checkpoints after every iteration. */
    @State(Scope.Benchmark)
    public static class Writes {
        String agentId;
        long nextVersion;
        /** The newest checkpoint, the head a save that states it names. */
        AgentCheckpoint head;

        @Setup(Level.Trial)
        public void load(Target target) {
            agentId = target.agent("save");
            nextVersion = target.load(agentId);
            head = target.provider.getLatestCheckpoint(agentId).orElse(null);
        }

        @TearDown(Level.Iteration)
        public void trim(Target target) {
            target.provider.deleteCheckpointsBefore(agentId, nextVersion - target.size.checkpoints());
        }
    }

    @Benchmark
    public void save(Target target, Writes writes) {
        long version = writes.nextVersion++;
        target.provider.saveCheckpoint(writes.agentId, Fixtures.checkpoint(writes.agentId, version, target.messages));
    }

    /** A save that states the head it read, as the facade's, pipelines' and chat stores' saves do. */
    @Benchmark
    public void saveAfter(Target target, Writes writes) {
        AgentCheckpoint next = Fixtures.checkpoint(writes.agentId, writes.nextVersion++, target.messages);
        target.provider.saveCheckpointAfter(writes.agentId, Optional.ofNullable(writes.head), next);
        writes.head = next;
    }

    @Benchmark
    public Optional<AgentCheckpoint> latest(Target target, Reads reads) {
        return target.provider.getLatestCheckpoint(reads.agentId);
    }

    @Benchmark
    public Optional<AgentCheckpoint> getById(Target target, Reads reads) {
        return target.provider.getCheckpoint(reads.agentId, reads.middleId);
    }

    @Benchmark
    public List<AgentCheckpoint> list100(Target target, Reads reads) {
        return target.provider.getCheckpoints(reads.agentId, Fixtures.LIST_FILTER);
    }
}
