package dev.agentpersistence.observation;

import dev.agentpersistence.metrics.StorageMetricNames;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns agent-persistence's observations into the meters its dashboards read: a timer per observation name tagged with
 * the observation's low-cardinality key values ({@link StorageMetricNames}), the size of saved checkpoints as the
 * backend wrote them, the conflict and error counters, and the counts an operation made. Meters are looked up once per
 * tag combination. In Spring Boot the auto-configuration registers it ahead of Micrometer's default meter handler;
 * elsewhere {@link AgentObservations#registryFor(MeterRegistry)} builds a registry with it.
 */
public final class AgentMeterHandler implements MeterObservationHandler<AgentObservationContext> {
    /** Lowest bucket of the checkpoint size histogram, in bytes. */
    static final double MIN_EXPECTED_SIZE_BYTES = 64;
    /** Highest bucket of the checkpoint size histogram, in bytes (256 MiB). */
    static final double MAX_EXPECTED_SIZE_BYTES = 256.0 * 1024 * 1024;

    private final MeterRegistry registry;
    private final Map<MeterKey, Timer> timers = new ConcurrentHashMap<>();
    /** Timers of observations nobody added keys to, by name, the keys they were created with and outcome. */
    private final Map<OwnKey, Timer> ownTimers = new ConcurrentHashMap<>();

    private final Map<MeterKey, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> sizes = new ConcurrentHashMap<>();

    /** A handler recording into {@code registry}. */
    public AgentMeterHandler(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        // published at zero before the first conflict, so a dashboard shows the rate from the start
        counter(StorageMetricNames.CONFLICT_RETRIES, KeyValues.empty());
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof AgentObservationContext;
    }

    @Override
    public void onStart(AgentObservationContext context) {
        context.sample = Timer.start(registry);
    }

    @Override
    public void onStop(AgentObservationContext context) {
        Timer.Sample sample = context.sample;
        if (sample == null) {
            return; // started before this handler was registered
        }
        KeyValues own = context.ownKeysIfAlone();
        KeyValues merged = own == null ? context.getLowCardinalityKeyValues() : null;
        if (own != null) {
            // the common case: looked up by the keys it was created with and its outcome, no merged key set built
            var ownKey = new OwnKey(context.getName(), own, context.outcome());
            Timer timer = ownTimers.get(ownKey);
            if (timer == null) {
                timer = ownTimers.computeIfAbsent(
                        ownKey, key -> timer(new MeterKey(key.name(), context.getLowCardinalityKeyValues())));
            }
            sample.stop(timer);
        } else {
            sample.stop(timer(new MeterKey(context.getName(), merged)));
        }
        String provider = value(own != null ? own : merged, StorageMetricNames.TAG_PROVIDER);
        if (provider != null) {
            recordStorage(context, merged, provider);
        }
        for (AgentObservationContext.Count count : context.countsAsMade()) {
            counter(count.name(), count.tags()).increment(count.amount());
        }
    }

    private Timer timer(MeterKey meterKey) {
        return timers.computeIfAbsent(
                meterKey,
                key -> Timer.builder(key.name())
                        .description(StorageMetricNames.describe(key.name()))
                        .tags(tags(key.keys()))
                        .publishPercentileHistogram()
                        .register(registry));
    }

    /** The size, conflict and error meters of a storage observation; {@code merged} is null when no key was added. */
    private void recordStorage(AgentObservationContext context, KeyValues merged, String provider) {
        if (context.bytesWritten() >= 0) {
            sizes.computeIfAbsent(
                            provider,
                            name -> DistributionSummary.builder(StorageMetricNames.CHECKPOINT_SIZE)
                                    .description("Size of saved checkpoints as the backend stored them")
                                    .baseUnit("bytes")
                                    .tag(StorageMetricNames.TAG_PROVIDER, name)
                                    .publishPercentileHistogram()
                                    .minimumExpectedValue(MIN_EXPECTED_SIZE_BYTES)
                                    .maximumExpectedValue(MAX_EXPECTED_SIZE_BYTES)
                                    .register(registry))
                    .record(context.bytesWritten());
        }
        String outcome = merged == null ? context.outcome() : value(merged, StorageMetricNames.TAG_OUTCOME);
        if (StorageMetricNames.OUTCOME_CONFLICT.equals(outcome)) {
            counter(StorageMetricNames.CHECKPOINT_CONFLICTS, KeyValues.of(StorageMetricNames.TAG_PROVIDER, provider))
                    .increment();
        } else if (StorageMetricNames.OUTCOME_ERROR.equals(outcome) && context.getError() != null) {
            KeyValues keys = context.getLowCardinalityKeyValues();
            counter(
                            StorageMetricNames.ERRORS,
                            KeyValues.of(StorageMetricNames.TAG_PROVIDER, provider)
                                    .and(
                                            StorageMetricNames.TAG_OPERATION,
                                            value(keys, StorageMetricNames.TAG_OPERATION),
                                            StorageMetricNames.TAG_EXCEPTION,
                                            context.getError().getClass().getSimpleName()))
                    .increment();
        }
    }

    private Counter counter(String name, KeyValues keys) {
        return counters.computeIfAbsent(
                new MeterKey(name, keys),
                key -> Counter.builder(key.name())
                        .description(StorageMetricNames.describe(key.name()))
                        .tags(tags(key.keys()))
                        .register(registry));
    }

    private static String value(KeyValues keys, String key) {
        for (KeyValue keyValue : keys) {
            if (keyValue.getKey().equals(key)) {
                return keyValue.getValue();
            }
        }
        return null;
    }

    private static Tags tags(KeyValues keys) {
        return Tags.of(keys.stream()
                .map(keyValue -> Tag.of(keyValue.getKey(), keyValue.getValue()))
                .toList());
    }

    private record MeterKey(String name, KeyValues keys) {}

    private record OwnKey(String name, KeyValues keys, String outcome) {}
}
