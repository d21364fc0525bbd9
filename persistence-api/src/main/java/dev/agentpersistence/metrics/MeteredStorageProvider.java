package dev.agentpersistence.metrics;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.spi.NoPersistenceStorageProvider;
import dev.agentpersistence.storage.StorageShell;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records Micrometer metrics for every call of any storage provider, custom ones included, and delegates the call
 * unchanged (results and exceptions alike). Meter names, tags and outcomes are listed in {@link StorageMetricNames};
 * every meter carries the tag {@code provider}. Build with {@link #builder(PersistenceStorageProvider, MeterRegistry)}
 * or {@link #wrap}.
 *
 * <p>{@code AgentPersistence} and the pipeline wrap their storage with this class when they are given a
 * {@link MeterRegistry}; {@link #wrap} leaves a provider that is already metered alone.
 *
 * @param <F> the wrapped provider's filter type
 */
public final class MeteredStorageProvider<F> implements PersistenceStorageProvider<F> {
    private static final String PROVIDER_SUFFIX = "StorageProvider";

    private final PersistenceStorageProvider<F> delegate;
    private final MeterRegistry registry;
    private final String providerName;
    private final StorageMetricsConfig config;
    private final CheckpointCodec sizeCodec;
    private final DistributionSummary size;
    private final Counter conflicts;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    private MeteredStorageProvider(Builder<F> builder) {
        this.delegate = builder.delegate;
        this.registry = builder.registry;
        this.providerName = builder.providerName;
        this.config = builder.config;
        this.sizeCodec = CheckpointCodec.json();
        this.size = DistributionSummary.builder(StorageMetricNames.CHECKPOINT_SIZE)
                .description("Size of saved checkpoints in their JSON form")
                .baseUnit("bytes")
                .tag(StorageMetricNames.TAG_PROVIDER, providerName)
                .publishPercentiles(config.percentiles())
                .publishPercentileHistogram(config.percentileHistogram())
                .minimumExpectedValue(StorageMetricsConfig.MIN_EXPECTED_SIZE_BYTES)
                .maximumExpectedValue(StorageMetricsConfig.MAX_EXPECTED_SIZE_BYTES)
                .register(registry);
        this.conflicts = Counter.builder(StorageMetricNames.CHECKPOINT_CONFLICTS)
                .description("Saves refused because another checkpoint holds the version or id")
                .tag(StorageMetricNames.TAG_PROVIDER, providerName)
                .register(registry);
    }

    /** Starts a builder; the {@code provider} tag defaults to {@link #defaultProviderName}. */
    public static <F> Builder<F> builder(PersistenceStorageProvider<F> delegate, MeterRegistry registry) {
        return new Builder<>(delegate, registry);
    }

    /** Wraps {@code delegate} with default settings, unless it is already metered (then returns it as is). */
    public static <F> PersistenceStorageProvider<F> wrap(
            PersistenceStorageProvider<F> delegate, MeterRegistry registry) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(registry, "registry");
        if (delegate instanceof MeteredStorageProvider) {
            return delegate;
        }
        return builder(delegate, registry).build();
    }

    /**
     * The {@code provider} tag used unless one is set: the class's simple name without the {@code StorageProvider}
     * suffix, in lower case ({@code JdbcStorageProvider} → {@code jdbc}, {@code InMemoryStorageProvider} →
     * {@code inmemory}); {@code none} for {@link NoPersistenceStorageProvider}; the name of the provider underneath for
     * {@link IncrementalHistoryStorageProvider}; the full class name for anonymous classes.
     */
    public static String defaultProviderName(PersistenceStorageProvider<?> provider) {
        Objects.requireNonNull(provider, "provider");
        if (provider instanceof NoPersistenceStorageProvider) {
            return "none";
        }
        if (provider instanceof IncrementalHistoryStorageProvider incremental) {
            return defaultProviderName(incremental.delegate());
        }
        String name = provider.getClass().getSimpleName();
        if (provider.getClass() == StorageShell.class) {
            name = ((StorageShell) provider)
                    .backend()
                    .getClass()
                    .getSimpleName()
                    .replaceFirst("(Storage)?Backend$", "");
        }
        if (name.endsWith(PROVIDER_SUFFIX) && name.length() > PROVIDER_SUFFIX.length()) {
            name = name.substring(0, name.length() - PROVIDER_SUFFIX.length());
        }
        return name.isEmpty() ? provider.getClass().getName() : name.toLowerCase(Locale.ROOT);
    }

    /** The wrapped provider. */
    public PersistenceStorageProvider<F> delegate() {
        return delegate;
    }

    /** The value of the {@code provider} tag. */
    public String providerName() {
        return providerName;
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, F filter) {
        return time(
                StorageMetricNames.CHECKPOINT_LOAD,
                StorageMetricNames.OP_LIST,
                () -> delegate.getCheckpoints(agentId, filter));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return time(
                StorageMetricNames.CHECKPOINT_LOAD, StorageMetricNames.OP_LIST, () -> delegate.getCheckpoints(agentId));
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        time(StorageMetricNames.CHECKPOINT_SAVE, StorageMetricNames.OP_SAVE, () -> {
            delegate.saveCheckpoint(agentId, checkpoint);
            return null;
        });
        if (config.recordSize()) {
            size.record(sizeCodec.encode(checkpoint).length);
        }
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, F filter) {
        return time(
                StorageMetricNames.CHECKPOINT_LOAD,
                StorageMetricNames.OP_LATEST,
                () -> delegate.getLatestCheckpoint(agentId, filter));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return time(
                StorageMetricNames.CHECKPOINT_LOAD,
                StorageMetricNames.OP_LATEST,
                () -> delegate.getLatestCheckpoint(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return time(
                StorageMetricNames.CHECKPOINT_LOAD,
                StorageMetricNames.OP_GET,
                () -> delegate.getCheckpoint(agentId, checkpointId));
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return time(
                StorageMetricNames.CHECKPOINT_DELETE,
                StorageMetricNames.OP_DELETE_ALL,
                () -> delegate.deleteCheckpoints(agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return time(
                StorageMetricNames.CHECKPOINT_DELETE,
                StorageMetricNames.OP_DELETE_BEFORE,
                () -> delegate.deleteCheckpointsBefore(agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return time(StorageMetricNames.AGENTS_LIST, StorageMetricNames.OP_LIST, delegate::listAgents);
    }

    /** Closes the wrapped provider. */
    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return "Metered[" + providerName + ": " + delegate + "]";
    }

    private <T> T time(String name, String operation, Supplier<T> call) {
        long start = System.nanoTime();
        String outcome = StorageMetricNames.OUTCOME_SUCCESS;
        try {
            T result = call.get();
            if (result instanceof Optional<?> optional && optional.isEmpty()) {
                outcome = StorageMetricNames.OUTCOME_NOT_FOUND;
            }
            return result;
        } catch (CheckpointConflictException e) {
            outcome = StorageMetricNames.OUTCOME_CONFLICT;
            conflicts.increment();
            throw e;
        } catch (UnsupportedOperationException e) {
            outcome = StorageMetricNames.OUTCOME_UNSUPPORTED;
            throw e;
        } catch (RuntimeException | Error e) {
            outcome = StorageMetricNames.OUTCOME_ERROR;
            countError(operation, e);
            throw e;
        } finally {
            timer(name, operation, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    private void countError(String operation, Throwable error) {
        Counter.builder(StorageMetricNames.ERRORS)
                .description("Storage calls that failed, by operation and exception type")
                .tags(Tags.of(
                        StorageMetricNames.TAG_PROVIDER,
                        providerName,
                        StorageMetricNames.TAG_OPERATION,
                        operation,
                        StorageMetricNames.TAG_EXCEPTION,
                        error.getClass().getSimpleName()))
                .register(registry)
                .increment();
    }

    private Timer timer(String name, String operation, String outcome) {
        return timers.computeIfAbsent(
                name + '|' + operation + '|' + outcome,
                key -> Timer.builder(name)
                        .description(StorageMetricNames.describe(name))
                        .tags(Tags.of(
                                StorageMetricNames.TAG_PROVIDER,
                                providerName,
                                StorageMetricNames.TAG_OPERATION,
                                operation,
                                StorageMetricNames.TAG_OUTCOME,
                                outcome))
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
            this.providerName = defaultProviderName(delegate);
        }

        /** The {@code provider} tag value, e.g. {@code jdbc}; default {@link #defaultProviderName}. */
        public Builder<F> providerName(String providerName) {
            Objects.requireNonNull(providerName, "providerName");
            if (providerName.isBlank()) {
                throw new IllegalArgumentException("providerName must not be blank");
            }
            this.providerName = providerName;
            return this;
        }

        /** Percentiles, histograms and size recording; default {@link StorageMetricsConfig#ofDefaults()}. */
        public Builder<F> config(StorageMetricsConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** The decorator; its size and conflict meters are registered right away. */
        public MeteredStorageProvider<F> build() {
            return new MeteredStorageProvider<>(this);
        }
    }
}
