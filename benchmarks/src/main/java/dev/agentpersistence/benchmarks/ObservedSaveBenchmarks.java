package dev.agentpersistence.benchmarks;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.observation.AgentObservations;
import dev.agentpersistence.storage.StorageShell;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What observing a provider costs: the same save with the shell built without an observation registry
 * ({@code observed=none}) and with one that records into a meter registry ({@code observed=meters}, as
 * {@link AgentObservations#registryFor} gives, the set-up of an application with Actuator). The provider is the one
 * discovery builds (incremental history on); each save appends a version carrying the same history, trimmed back after
 * every iteration, as in {@link ProviderBenchmarks}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ObservedSaveBenchmarks {

    /** The provider under test. */
    @State(Scope.Benchmark)
    public static class Target {
        @Param({"inmemory", "file-nofsync"})
        public String backend;

        @Param({"10", "1000"})
        public int messages;

        @Param({"none", "meters"})
        public String observed;

        PersistenceStorageProvider<CheckpointFilter> provider;
        List<Message> history;
        Path directory;
        String agentId;
        long nextVersion;

        @Setup(Level.Trial)
        public void open() throws IOException {
            ObservationRegistry observations = observed.equals("meters")
                    ? AgentObservations.registryFor(new SimpleMeterRegistry())
                    : ObservationRegistry.NOOP;
            StorageShell.Builder builder = switch (backend) {
                case "inmemory" -> InMemoryStorage.builder();
                case "file-nofsync" -> {
                    directory = Files.createTempDirectory("observed-save");
                    yield FileStorage.builder(FileStorageConfig.custom()
                            .directory(directory)
                            .fsync(false)
                            .build());
                }
                default -> throw new IllegalArgumentException("backend " + backend);
            };
            provider = builder.settings(BenchmarkedForm.settings(true))
                    .observationRegistry(observations)
                    .build();
            history = Fixtures.history(messages);
            agentId = "observed-" + backend + "-" + messages + "-" + observed;
        }

        @TearDown(Level.Iteration)
        public void trim() {
            provider.deleteCheckpointsBefore(agentId, nextVersion - 10);
        }

        @TearDown(Level.Trial)
        public void close() {
            provider.close();
            if (directory != null) {
                Directories.deleteRecursively(directory);
            }
        }
    }

    /**
     * A call that does almost nothing (the agents of an empty store): its time with {@code observed=meters} less the
     * time with {@code none} is what one observation costs.
     */
    @State(Scope.Benchmark)
    public static class Empty {
        PersistenceStorageProvider<CheckpointFilter> provider;

        @Setup(Level.Trial)
        public void open(Target target) {
            ObservationRegistry observations = target.observed.equals("meters")
                    ? AgentObservations.registryFor(new SimpleMeterRegistry())
                    : ObservationRegistry.NOOP;
            provider =
                    InMemoryStorage.builder().observationRegistry(observations).build();
        }

        @TearDown(Level.Trial)
        public void close() {
            provider.close();
        }
    }

    /**
     * Micrometer's own floor: one observation of nothing, with the three low-cardinality keys of ours, into a timer
     * through Micrometer's {@code DefaultMeterObservationHandler} (no handler of ours).
     */
    @State(Scope.Benchmark)
    public static class Bare {
        ObservationRegistry observations;

        @Setup(Level.Trial)
        public void open() {
            observations = ObservationRegistry.create();
            observations
                    .observationConfig()
                    .observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
        }
    }

    @Benchmark
    public void bareObservation(Bare bare) {
        Observation.createNotStarted("agent.persistence.bare", bare.observations)
                .lowCardinalityKeyValue("provider", "inmemory")
                .lowCardinalityKeyValue("operation", "list")
                .lowCardinalityKeyValue("outcome", "success")
                .observe(() -> {});
    }

    @Benchmark
    public List<String> emptyCall(Empty empty) {
        return empty.provider.listAgents();
    }

    @Benchmark
    public void save(Target target) {
        long version = target.nextVersion++;
        target.provider.saveCheckpoint(target.agentId, Fixtures.checkpoint(target.agentId, version, target.history));
    }
}
