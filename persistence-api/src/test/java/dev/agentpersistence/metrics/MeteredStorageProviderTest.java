package dev.agentpersistence.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.spi.NoPersistenceStorageProvider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MeteredStorageProviderTest {
    private static final String AGENT = "agent-1";

    private SimpleMeterRegistry registry;
    private HeapStorage heap;
    private MeteredStorageProvider<CheckpointFilter> metered;

    @BeforeEach
    void setUp() {
        registry = new SimpleMeterRegistry();
        heap = new HeapStorage();
        metered = MeteredStorageProvider.builder(heap, registry)
                .providerName("heap")
                .build();
    }

    private static AgentCheckpoint checkpoint(long version, String text) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(AGENT)
                .version(version)
                .createdAt(Instant.parse("2025-01-01T00:00:00.123456789Z").plusSeconds(version))
                .nodeId("node-" + version)
                .message(Message.user(text).withId("m-" + version))
                .build();
    }

    private Timer timer(String name, String operation, String outcome) {
        return registry.find(name)
                .tags("provider", "heap", "operation", operation, "outcome", outcome)
                .timer();
    }

    private long count(String name, String operation, String outcome) {
        Timer timer = timer(name, operation, outcome);
        return timer == null ? 0 : timer.count();
    }

    @Test
    void savesAreTimedWithProviderOperationAndOutcomeAndPassedThrough() {
        metered.saveCheckpoint(AGENT, checkpoint(0, "hello"));
        metered.saveCheckpoint(AGENT, checkpoint(1, "again"));

        assertThat(heap.getCheckpoints(AGENT))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L);
        Timer save = timer(StorageMetricNames.CHECKPOINT_SAVE, "save", "success");
        assertThat(save).isNotNull();
        assertThat(save.count()).isEqualTo(2);
        assertThat(save.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
        assertThat(save.getId().getDescription()).isNotBlank();
    }

    @Test
    void readsAreTimedPerOperationWithNotFoundForEmptyLookups() {
        assertThat(metered.getLatestCheckpoint(AGENT)).isEmpty();
        assertThat(metered.getCheckpoint(AGENT, "missing")).isEmpty();
        metered.saveCheckpoint(AGENT, checkpoint(0, "hello"));
        assertThat(metered.getLatestCheckpoint(AGENT)).contains(checkpoint(0, "hello"));
        assertThat(metered.getLatestCheckpoint(
                        AGENT, CheckpointFilter.builder().nodeId("node-0").build()))
                .contains(checkpoint(0, "hello"));
        assertThat(metered.getCheckpoint(AGENT, "cp-0")).contains(checkpoint(0, "hello"));
        assertThat(metered.getCheckpoints(AGENT)).containsExactly(checkpoint(0, "hello"));
        assertThat(metered.getCheckpoints(
                        AGENT, CheckpointFilter.builder().nodeId("other").build()))
                .isEmpty();

        String load = StorageMetricNames.CHECKPOINT_LOAD;
        assertThat(count(load, "latest", "not_found")).isEqualTo(1);
        assertThat(count(load, "latest", "success")).isEqualTo(2);
        assertThat(count(load, "get", "not_found")).isEqualTo(1);
        assertThat(count(load, "get", "success")).isEqualTo(1);
        assertThat(count(load, "list", "success"))
                .as("an empty list is still a success")
                .isEqualTo(2);
    }

    @Test
    void conflictsAreCountedAndTaggedAndTheExceptionIsRethrownUnchanged() {
        metered.saveCheckpoint(AGENT, checkpoint(0, "hello"));
        var conflicting = checkpoint(0, "different content");

        assertThatThrownBy(() -> metered.saveCheckpoint(AGENT, conflicting))
                .isInstanceOf(CheckpointConflictException.class);
        metered.saveCheckpoint(AGENT, checkpoint(0, "hello"));

        assertThat(count(StorageMetricNames.CHECKPOINT_SAVE, "save", "conflict"))
                .isEqualTo(1);
        assertThat(count(StorageMetricNames.CHECKPOINT_SAVE, "save", "success"))
                .as("identical re-save")
                .isEqualTo(2);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_CONFLICTS)
                        .tag("provider", "heap")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find(StorageMetricNames.ERRORS).counters())
                .as("a conflict is not an error")
                .isEmpty();
    }

    @Test
    void errorsAreCountedByOperationAndExceptionType() {
        metered.saveCheckpoint(AGENT, checkpoint(0, "hello"));
        heap.down(true);

        assertThatThrownBy(() -> metered.saveCheckpoint(AGENT, checkpoint(1, "x")))
                .isInstanceOf(StorageUnavailableException.class);
        assertThatThrownBy(() -> metered.getLatestCheckpoint(AGENT)).isInstanceOf(StorageUnavailableException.class);
        assertThatThrownBy(() -> metered.getLatestCheckpoint(AGENT)).isInstanceOf(StorageUnavailableException.class);
        assertThatThrownBy(metered::listAgents).isInstanceOf(StorageUnavailableException.class);
        heap.down(false);
        assertThatThrownBy(() -> metered.saveCheckpoint("someone-else", checkpoint(2, "y")))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(count(StorageMetricNames.CHECKPOINT_SAVE, "save", "error")).isEqualTo(2);
        assertThat(count(StorageMetricNames.CHECKPOINT_LOAD, "latest", "error")).isEqualTo(2);
        assertThat(registry.get(StorageMetricNames.AGENTS_LIST)
                        .tags("provider", "heap", "operation", "list", "outcome", "error")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(errors("save", "StorageUnavailableException")).isEqualTo(1);
        assertThat(errors("latest", "StorageUnavailableException")).isEqualTo(2);
        assertThat(errors("list", "StorageUnavailableException")).isEqualTo(1);
        assertThat(errors("save", "IllegalArgumentException")).isEqualTo(1);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_CONFLICTS)
                        .counter()
                        .count())
                .isZero();
    }

    private double errors(String operation, String exception) {
        Counter counter = registry.find(StorageMetricNames.ERRORS)
                .tags("provider", "heap", "operation", operation, "exception", exception)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void errorsThatAreNotExceptionsAreRecordedAsErrorsToo() {
        PersistenceStorageProvider<CheckpointFilter> failing = new TinyStorageProvider() {
            @Override
            public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
                throw new AssertionError("broken invariant");
            }
        };
        var wrapped = MeteredStorageProvider.builder(failing, registry)
                .providerName("heap")
                .build();

        assertThatThrownBy(() -> wrapped.getCheckpoints(AGENT)).isInstanceOf(AssertionError.class);

        assertThat(count(StorageMetricNames.CHECKPOINT_LOAD, "list", "error")).isEqualTo(1);
        assertThat(count(StorageMetricNames.CHECKPOINT_LOAD, "list", "success")).isZero();
        assertThat(errors("list", "AssertionError")).isEqualTo(1);
    }

    @Test
    void checkpointSizesAreRecordedInTheirJsonFormForSuccessfulSavesOnly() {
        var first = checkpoint(0, "hello");
        var second = checkpoint(1, "x".repeat(10_000));
        metered.saveCheckpoint(AGENT, first);
        metered.saveCheckpoint(AGENT, second);
        assertThatThrownBy(() -> metered.saveCheckpoint(AGENT, checkpoint(1, "conflict")))
                .isInstanceOf(CheckpointConflictException.class);

        DistributionSummary size = registry.get(StorageMetricNames.CHECKPOINT_SIZE)
                .tag("provider", "heap")
                .summary();
        var codec = CheckpointCodec.json();
        assertThat(size.count()).isEqualTo(2);
        assertThat(size.totalAmount()).isEqualTo(codec.encode(first).length + codec.encode(second).length);
        assertThat(size.max()).isEqualTo(codec.encode(second).length);
        assertThat(size.getId().getBaseUnit()).isEqualTo("bytes");
    }

    @Test
    void sizeRecordingCanBeTurnedOff() {
        var quiet = MeteredStorageProvider.builder(new HeapStorage(), registry)
                .providerName("quiet")
                .config(StorageMetricsConfig.custom().recordSize(false).build())
                .build();
        quiet.saveCheckpoint(AGENT, checkpoint(0, "hello"));

        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SIZE)
                        .tag("provider", "quiet")
                        .summary()
                        .count())
                .isZero();
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SAVE)
                        .tag("provider", "quiet")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void deletesAndAgentListingsAreTimed() {
        metered.saveCheckpoint(AGENT, checkpoint(0, "a"));
        metered.saveCheckpoint(AGENT, checkpoint(1, "b"));
        metered.saveCheckpoint(AGENT, checkpoint(2, "c"));

        assertThat(metered.deleteCheckpointsBefore(AGENT, 2)).isEqualTo(2);
        assertThat(metered.listAgents()).containsExactly(AGENT);
        assertThat(metered.deleteCheckpoints(AGENT)).isEqualTo(1);

        assertThat(count(StorageMetricNames.CHECKPOINT_DELETE, "delete_before", "success"))
                .isEqualTo(1);
        assertThat(count(StorageMetricNames.CHECKPOINT_DELETE, "delete_all", "success"))
                .isEqualTo(1);
        assertThat(count(StorageMetricNames.AGENTS_LIST, "list", "success")).isEqualTo(1);
    }

    @Test
    void operationsTheProviderLeavesOutAreTaggedUnsupportedNotError() {
        var tiny = MeteredStorageProvider.wrap(new TinyStorageProvider(), registry);

        assertThatThrownBy(() -> tiny.deleteCheckpoints(AGENT)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(tiny::listAgents).isInstanceOf(UnsupportedOperationException.class);

        assertThat(registry.get(StorageMetricNames.CHECKPOINT_DELETE)
                        .tags("provider", "tiny", "operation", "delete_all", "outcome", "unsupported")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(StorageMetricNames.AGENTS_LIST)
                        .tags("provider", "tiny", "operation", "list", "outcome", "unsupported")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find(StorageMetricNames.ERRORS).counters()).isEmpty();
    }

    @Test
    void theDefaultProviderTagComesFromTheClassName() {
        assertThat(MeteredStorageProvider.defaultProviderName(new TinyStorageProvider()))
                .isEqualTo("tiny");
        assertThat(MeteredStorageProvider.defaultProviderName(new HeapStorage()))
                .isEqualTo("heapstorage");
        assertThat(MeteredStorageProvider.defaultProviderName(new NoPersistenceStorageProvider()))
                .isEqualTo("none");
        var anonymous = new TinyStorageProvider() {};
        assertThat(MeteredStorageProvider.defaultProviderName(anonymous))
                .isEqualTo(anonymous.getClass().getName());
        assertThat(MeteredStorageProvider.builder(new TinyStorageProvider(), registry)
                        .build()
                        .providerName())
                .isEqualTo("tiny");
    }

    @Test
    void wrapLeavesAnAlreadyMeteredProviderAlone() {
        assertThat(MeteredStorageProvider.wrap(metered, new SimpleMeterRegistry()))
                .isSameAs(metered);
        var wrapped = MeteredStorageProvider.wrap(heap, registry);
        assertThat(wrapped).isInstanceOf(MeteredStorageProvider.class);
        assertThat(((MeteredStorageProvider<CheckpointFilter>) wrapped).delegate())
                .isSameAs(heap);
    }

    @Test
    void closeClosesTheDelegate() {
        metered.close();
        assertThat(heap.isClosed()).isTrue();
        assertThatThrownBy(() -> metered.getCheckpoints(AGENT)).isInstanceOf(IllegalStateException.class);
        assertThat(errors("list", "IllegalStateException")).isEqualTo(1);
    }

    @Test
    void builderRejectsMissingOrBlankArguments() {
        assertThatThrownBy(() -> MeteredStorageProvider.builder(null, registry))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> MeteredStorageProvider.builder(heap, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> MeteredStorageProvider.builder(heap, registry).providerName(" "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MeteredStorageProvider.builder(heap, registry).config(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void histogramBucketsAreRequestedByDefaultForPrometheusStyleQuantiles() {
        var seen = new java.util.concurrent.ConcurrentHashMap<String, DistributionStatisticConfig>();
        var observed = new SimpleMeterRegistry();
        observed.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                seen.put(id.getName(), config);
                return config;
            }
        });
        MeteredStorageProvider.wrap(new HeapStorage(), observed).saveCheckpoint(AGENT, checkpoint(0, "hello"));

        var save = seen.get(StorageMetricNames.CHECKPOINT_SAVE);
        assertThat(save.isPercentileHistogram()).isTrue();
        var size = seen.get(StorageMetricNames.CHECKPOINT_SIZE);
        assertThat(size.isPercentileHistogram()).isTrue();
        assertThat(size.getMinimumExpectedValueAsDouble()).isEqualTo(StorageMetricsConfig.MIN_EXPECTED_SIZE_BYTES);
        assertThat(size.getMaximumExpectedValueAsDouble()).isEqualTo(StorageMetricsConfig.MAX_EXPECTED_SIZE_BYTES);
    }

    @Test
    void configuredPercentilesArePublishedAndHistogramsCanBeTurnedOff() {
        var config = StorageMetricsConfig.custom()
                .percentiles(0.5, 0.95, 0.99)
                .percentileHistogram(false)
                .build();
        var withPercentiles = MeteredStorageProvider.builder(new HeapStorage(), registry)
                .providerName("p")
                .config(config)
                .build();
        for (int v = 0; v < 20; v++) {
            withPercentiles.saveCheckpoint(AGENT, checkpoint(v, "m" + v));
        }

        var snapshot = registry.get(StorageMetricNames.CHECKPOINT_SAVE)
                .tag("provider", "p")
                .timer()
                .takeSnapshot();
        assertThat(snapshot.percentileValues()).extracting(v -> v.percentile()).containsExactly(0.5, 0.95, 0.99);
        assertThat(snapshot.histogramCounts()).isEmpty();
        var size = registry.get(StorageMetricNames.CHECKPOINT_SIZE)
                .tag("provider", "p")
                .summary()
                .takeSnapshot();
        assertThat(size.percentileValues()).hasSize(3);
    }

    @Test
    void everyMeterNameIsDottedUnderAgentPersistence() {
        metered.saveCheckpoint(AGENT, checkpoint(0, "a"));
        metered.getLatestCheckpoint(AGENT);
        metered.deleteCheckpoints(AGENT);
        metered.listAgents();
        heap.down(true);
        assertThatThrownBy(() -> metered.getCheckpoints(AGENT)).isInstanceOf(StorageUnavailableException.class);

        assertThat(registry.getMeters())
                .extracting(m -> m.getId().getName())
                .allSatisfy(name -> assertThat(name).matches("agent\\.persistence(\\.[a-z]+)+"));
        assertThat(registry.getMeters())
                .extracting(Meter::getId)
                .allSatisfy(id -> assertThat(id.getTag("provider")).isEqualTo("heap"));
    }

    /** A provider with the three required methods only, as a minimal custom provider would be. */
    static class TinyStorageProvider implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return List.of();
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {}

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return Optional.empty();
        }
    }
}
