package dev.agentpersistence.metrics;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Records Micrometer metrics for every call of any storage provider, custom ones included, and
 * delegates the call unchanged. Meter names are in {@link StorageMetricNames}; every meter carries
 * the tag {@code provider}. Build with {@link #builder(PersistenceStorageProvider, MeterRegistry)}.
 *
 * @param <F> the wrapped provider's filter type
 */
public final class MeteredStorageProvider<F> implements PersistenceStorageProvider<F> {
    private final PersistenceStorageProvider<F> delegate;
    private final MeterRegistry registry;
    private final String providerName;
    private final StorageMetricsConfig config;
    private final CheckpointCodec sizeCodec;
    private final DistributionSummary size;
    private final Counter conflicts;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    private MeteredStorageProvider(PersistenceStorageProvider<F> delegate, MeterRegistry registry,
                                   String providerName, StorageMetricsConfig config) {
        this.delegate = delegate;
        this.registry = registry;
        this.providerName = providerName;
        this.config = config;
        this.sizeCodec = CheckpointCodec.json();
        this.size = DistributionSummary.builder(StorageMetricNames.CHECKPOINT_SIZE)
                .description("Size of saved checkpoints in their JSON form")
                .baseUnit("bytes")
                .tag(StorageMetricNames.TAG_PROVIDER, providerName)
                .publishPercentiles(config.percentiles())
                .publishPercentileHistogram(config.percentileHistogram())
                .register(registry);
        this.conflicts = Counter.builder(StorageMetricNames.CHECKPOINT_CONFLICTS)
                .description("Saves refused because another checkpoint holds the version or id")
                .tag(StorageMetricNames.TAG_PROVIDER, providerName)
                .register(registry);
    }

    /** Starts a builder; {@code providerName} defaults to the provider's simple class name. */
    public static <F> Builder<F> builder(PersistenceStorageProvider<F> delegate, MeterRegistry registry) {
        return new Builder<>(delegate, registry);
    }

    /** Wraps {@code delegate} with default settings, unless it is already metered. */
    public static <F> PersistenceStorageProvider<F> wrap(PersistenceStorageProvider<F> delegate, MeterRegistry registry) {
        if (delegate instanceof MeteredStorageProvider) {
            return delegate;
        }
        return builder(delegate, registry).build();
    }

    /** The wrapped provider. */
    public PersistenceStorageProvider<F> delegate() {
        return delegate;
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, F filter) {
        return time(StorageMetricNames.CHECKPOINT_LOAD, "list", () -> delegate.getCheckpoints(agentId, filter));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return time(StorageMetricNames.CHECKPOINT_LOAD, "list", () -> delegate.getCheckpoints(agentId));
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        time(StorageMetricNames.CHECKPOINT_SAVE, "save", () -> {
            delegate.saveCheckpoint(agentId, checkpoint);
            return null;
        });
        if (config.recordSize()) {
            size.record(sizeCodec.encode(checkpoint).length);
        }
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter) {
        return time(StorageMetricNames.CHECKPOINT_LOAD, "latest", () -> delegate.getLatestCheckpoint(agentId, filter));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return time(StorageMetricNames.CHECKPOINT_LOAD, "latest", () -> delegate.getLatestCheckpoint(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return time(StorageMetricNames.CHECKPOINT_LOAD, "get", () -> delegate.getCheckpoint(agentId, checkpointId));
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return time(StorageMetricNames.CHECKPOINT_DELETE, "all", () -> delegate.deleteCheckpoints(agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return time(StorageMetricNames.CHECKPOINT_DELETE, "before",
                () -> delegate.deleteCheckpointsBefore(agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return time(StorageMetricNames.AGENTS_LIST, "list", delegate::listAgents);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return "Metered[" + delegate + "]";
    }

    private <T> T time(String name, String operation, Supplier<T> call) {
        long start = System.nanoTime();
        String outcome = "success";
        try {
            T result = call.get();
            if (result instanceof Optional<?> optional && optional.isEmpty()) {
                outcome = "not_found";
            }
            return result;
        } catch (CheckpointConflictException e) {
            outcome = "conflict";
            conflicts.increment();
            throw e;
        } catch (UnsupportedOperationException e) {
            outcome = "unsupported";
            throw e;
        } catch (RuntimeException e) {
            outcome = "error";
            Counter.builder(StorageMetricNames.ERRORS)
                    .description("Storage calls that failed, by operation and exception type")
                    .tags(Tags.of(StorageMetricNames.TAG_PROVIDER, providerName,
                            StorageMetricNames.TAG_OPERATION, operation,
                            StorageMetricNames.TAG_EXCEPTION, e.getClass().getSimpleName()))
                    .register(registry)
                    .increment();
            throw e;
        } finally {
            timer(name, operation, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    private Timer timer(String name, String operation, String outcome) {
        return timers.computeIfAbsent(name + '|' + operation + '|' + outcome, key -> Timer.builder(name)
                .tags(Tags.of(StorageMetricNames.TAG_PROVIDER, providerName,
                        StorageMetricNames.TAG_OPERATION, operation,
                        StorageMetricNames.TAG_OUTCOME, outcome))
                .publishPercentiles(config.percentiles())
                .publishPercentileHistogram(config.percentileHistogram())
                .register(registry));
    }

    /** Configures a {@link MeteredStorageProvider}. */
    public static final class Builder<F> {
        private final PersistenceStorageProvider<F> delegate;
        private final MeterRegistry registry;
        private String providerName;
        private StorageMetricsConfig config = StorageMetricsConfig.ofDefaults();

        private Builder(PersistenceStorageProvider<F> delegate, MeterRegistry registry) {
            this.delegate = Objects.requireNonNull(delegate, "delegate");
            this.registry = Objects.requireNonNull(registry, "registry");
            this.providerName = delegate.getClass().getSimpleName();
        }

        /** The {@code provider} tag value, e.g. {@code jdbc}. */
        public Builder<F> providerName(String providerName) {
            this.providerName = Objects.requireNonNull(providerName, "providerName");
            return this;
        }

        public Builder<F> config(StorageMetricsConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        public MeteredStorageProvider<F> build() {
            return new MeteredStorageProvider<>(delegate, registry, providerName, config);
        }
    }
}
