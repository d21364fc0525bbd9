package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Pipeline.Builder#meterRegistry} meters the pipeline; with {@link Pipeline.Builder#observationRegistry} and a
 * storage built with the same registry, the facade and the storage report to the same meters.
 */
class MeterRegistryWiringTest {

    private static Pipeline.Builder<Draft> twoNodes(AtomicInteger calls) {
        return Pipeline.builder("wired", Draft.CODEC)
                .node(Node.of("first", ctx -> ctx.state().append("a", "first")))
                .node(Node.<Draft>builder("second")
                        .postcondition(
                                Conditions.of("ends with b", d -> d.text().endsWith("b"), d -> "text must end with b"))
                        .action(ctx -> ctx.state().append(calls.incrementAndGet() == 1 ? "x" : "b", "second"))
                        .build());
    }

    @Test
    void storagePipelineAndFacadeAreMeteredFromOneRegistry() {
        var registry = new SimpleMeterRegistry();
        var observations = AgentObservations.registryFor(registry);
        var pipeline = twoNodes(new AtomicInteger())
                .storage(Storages.inMemory(observations))
                .meterRegistry(registry)
                .observationRegistry(observations)
                .build();

        var result = pipeline.run("run-1", Draft.empty());

        assertThat(result.isCompleted()).isTrue();
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SAVE)
                        .tags("provider", "inmemory", "operation", "save", "outcome", "success")
                        .timer()
                        .count())
                .as("start, first, second and the completion tombstone")
                .isEqualTo(4);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SIZE)
                        .tag("provider", "inmemory")
                        .summary()
                        .count())
                .isEqualTo(4);
        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tag("kind", "checkpoint")
                        .timer()
                        .count())
                .isEqualTo(3);
        assertThat(registry.get(PipelineMetrics.NODE_ATTEMPTS)
                        .tag("node", "second")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get(PipelineMetrics.NODE_RETRIES)
                        .tag("node", "second")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.NODE_ROLLBACKS)
                        .tag("node", "second")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.VALIDATION_FAILURES)
                        .tags("node", "second", "condition", "ends with b", "phase", "post")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void callingItTwiceKeepsOneMetricsListenerOnTheLastRegistry() {
        var first = new SimpleMeterRegistry();
        var second = new SimpleMeterRegistry();
        var pipeline = twoNodes(new AtomicInteger())
                .storage(Storages.inMemory())
                .meterRegistry(first)
                .meterRegistry(second)
                .build();

        pipeline.run("run-2", Draft.empty());

        assertThat(first.getMeters()).isEmpty();
        assertThat(second.get(PipelineMetrics.NODE_ATTEMPTS)
                        .tag("node", "first")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aGivenFacadeKeepsItsOwnStorageWhilePipelineMetersAreRecorded() {
        var registry = new SimpleMeterRegistry();
        var storage = Storages.inMemory();
        var facade = AgentPersistence.builder().storage(storage).build();
        var pipeline = twoNodes(new AtomicInteger())
                .persistence(facade)
                .meterRegistry(registry)
                .build();

        pipeline.run("run-3", Draft.empty());

        assertThat(pipeline.persistence().storage()).isSameAs(storage);
        assertThat(registry.find(StorageMetricNames.CHECKPOINT_SAVE).timers()).isEmpty();
        assertThat(registry.get(PipelineMetrics.NODE_ATTEMPTS)
                        .tag("node", "second")
                        .counter()
                        .count())
                .isEqualTo(2);
    }
}
