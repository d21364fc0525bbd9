package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.ScriptedModel.Mode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PipelineMetrics} over a run with one failed and retried attempt. */
class MetricsTest {
    private static final String P = DocumentPipeline.NAME;

    @TempDir
    Path tmp;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void nodeAttemptsRetriesRollbacksValidationFailuresAndCheckpointsAreMeasured() {
        var model = new ScriptedModel(Map.of("concepts-writer", Mode.BREAKS_UNTIL_FEEDBACK));
        Path ws = tmp.resolve("ws");
        var pipeline = DocumentPipeline.builder(ws, model)
                .storage(storage)
                .listener(event -> {
                    throw new IllegalStateException("a broken listener must not break the run");
                })
                .meterRegistry(registry)
                .build();

        assertThat(pipeline.run("metrics-1", DocumentPipeline.newWorkspace(ws)).isCompleted())
                .isTrue();

        assertThat(registry.get(PipelineMetrics.NODE_DURATION)
                        .tags("pipeline", P, "node", "concepts-writer", "outcome", "validation_failed")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.NODE_DURATION)
                        .tags("pipeline", P, "node", "concepts-writer", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.NODE_DURATION)
                        .tags("outcome", "success")
                        .timers())
                .hasSize(3);
        assertThat(registry.get(PipelineMetrics.NODE_ATTEMPTS)
                        .tags("node", "concepts-writer")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get(PipelineMetrics.NODE_ATTEMPTS)
                        .tags("node", "overview-writer")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.NODE_RETRIES)
                        .tags("node", "concepts-writer")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.NODE_ROLLBACKS)
                        .tags("node", "concepts-writer")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.VALIDATION_FAILURES)
                        .tags("pipeline", P, "node", "concepts-writer", "condition", "concept blocks", "phase", "post")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.CHECKPOINT_SAVE_DURATION)
                        .tags("pipeline", P)
                        .timer()
                        .count())
                .isEqualTo(5);
        var size = registry.get(PipelineMetrics.CHECKPOINT_SIZE)
                .tags("pipeline", P)
                .summary();
        assertThat(size.count()).isEqualTo(5);
        assertThat(size.max()).isGreaterThan(1000);
        assertThat(registry.get(PipelineMetrics.CHECKPOINT_LOAD_DURATION)
                        .tags("found", "false")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.RUN_DURATION)
                        .tags("status", "completed", "reason", "none")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find(PipelineMetrics.CHECKPOINT_SAVE_FAILURES).counters())
                .isEmpty();
    }

    @Test
    void failedRunsArePerReasonAndPreconditionFailuresPerCondition() {
        Path ws = tmp.resolve("ws");
        FileWorkspace.at(ws).write(Docs.FILE, Docs.initial().replace("overview-writer", "nobody"));
        var pipeline = DocumentPipeline.builder(ws, ScriptedModel.allCorrect())
                .storage(storage)
                .meterRegistry(registry)
                .build();

        assertThat(pipeline.run("metrics-2", FileWorkspace.at(ws)).isFailed()).isTrue();

        assertThat(registry.get(PipelineMetrics.VALIDATION_FAILURES)
                        .tags("node", "overview-writer", "condition", "CURRENT_AGENT", "phase", "pre")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.RUN_DURATION)
                        .tags("status", "failed", "reason", "precondition_failed")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.find(PipelineMetrics.NODE_DURATION).timers()).isEmpty();
    }
}
