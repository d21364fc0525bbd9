package dev.agentpersistence.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.LinkedHashSet;
import java.util.Objects;

/**
 * The pipeline's meters. A pipeline observes each operation — a run, a node attempt, a checkpoint save, a checkpoint
 * load — as one observation named after its timer, with the low-cardinality keys below, in its observation registry
 * ({@link Pipeline.Builder#observationRegistry}, or one recording into {@link Pipeline.Builder#meterRegistry}); the
 * meter handler of that registry ({@link dev.agentpersistence.observation.AgentMeterHandler}) records the timers, and a
 * tracing handler makes the same observations spans, with the storage's spans inside them. This listener records the
 * counts of the pipeline's events and the other meters: {@code builder.meterRegistry(registry)} adds it (and observes
 * into the registry); {@code builder.listener(PipelineMetrics.bindTo(registry))} adds it alone.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code pipeline})</caption>
 *   <tr><th>name</th><th>type</th><th>other tags</th><th>recorded</th></tr>
 *   <tr><td>{@value #NODE_DURATION}</td><td>timer</td><td>{@code node}, {@code outcome}
 *       ({@code success}|{@code validation_failed}|{@code error}|{@code waiting})</td>
 *       <td>per attempt (observed)</td></tr>
 *   <tr><td>{@value #NODE_ATTEMPTS}</td><td>counter</td><td>{@code node}</td><td>per attempt started</td></tr>
 *   <tr><td>{@value #NODE_RETRIES}</td><td>counter</td><td>{@code node}</td><td>per retry scheduled</td></tr>
 *   <tr><td>{@value #NODE_ROLLBACKS}</td><td>counter</td><td>{@code node}</td>
 *       <td>per failed attempt rolled back</td></tr>
 *   <tr><td>{@value #INVERSE_CALLS}</td><td>counter</td>
 *       <td>{@code node}, {@code outcome} ({@code success}|{@code failure})</td>
 *       <td>per inverse tool call</td></tr>
 *   <tr><td>{@value #VALIDATION_FAILURES}</td><td>counter</td><td>{@code node}, {@code condition}, {@code phase}
 *       ({@code pre}|{@code post})</td><td>per violated condition per check</td></tr>
 *   <tr><td>{@value #CHECKPOINT_SAVE_DURATION}</td><td>timer</td><td></td>
 *       <td>per checkpoint saved, retries included (observed)</td></tr>
 *   <tr><td>{@value #CHECKPOINT_SIZE}</td><td>summary (bytes)</td><td></td><td>per checkpoint saved</td></tr>
 *   <tr><td>{@value #CHECKPOINT_SAVE_FAILURES}</td><td>counter</td>
 *       <td>{@code retried} ({@code true}|{@code false})</td>
 *       <td>per failed save attempt</td></tr>
 *   <tr><td>{@value #CHECKPOINT_LOAD_DURATION}</td><td>timer</td><td>{@code found}</td>
 *       <td>per run start (observed)</td></tr>
 *   <tr><td>{@value #NODE_RECOVERIES}</td><td>counter</td><td>{@code node}</td><td>per attempt a crash cut off,
 *       undone from the tool journal when the run resumed</td></tr>
 *   <tr><td>{@value #INPUT_REQUESTS}</td><td>counter</td><td>{@code node}</td>
 *       <td>per question that made a run wait</td></tr>
 *   <tr><td>{@value #INPUT_WAIT_DURATION}</td><td>timer</td><td>{@code node}</td>
 *       <td>per answer accepted: the time the run waited</td></tr>
 *   <tr><td>{@value #RUN_DURATION}</td><td>timer</td><td>{@code status} ({@code completed}|{@code failed}),
 *       {@code reason} ({@code none}, the {@link PipelineFailure.Reason} in lower case, or {@code error} when the
 *       run threw)</td><td>per run (observed)</td></tr>
 * </table>
 *
 * Condition names become tag values: keep them a small fixed set.
 */
public final class PipelineMetrics implements PipelineListener {
    public static final String NODE_DURATION = "agent.pipeline.node.duration";
    public static final String NODE_ATTEMPTS = "agent.pipeline.node.attempts";
    public static final String NODE_RETRIES = "agent.pipeline.node.retries";
    public static final String NODE_ROLLBACKS = "agent.pipeline.node.rollbacks";
    public static final String INVERSE_CALLS = "agent.pipeline.rollback.inverse.calls";
    public static final String VALIDATION_FAILURES = "agent.pipeline.validation.failures";
    public static final String CHECKPOINT_SAVE_DURATION = "agent.pipeline.checkpoint.save.duration";
    public static final String CHECKPOINT_SIZE = "agent.pipeline.checkpoint.size";
    public static final String CHECKPOINT_SAVE_FAILURES = "agent.pipeline.checkpoint.save.failures";
    public static final String CHECKPOINT_LOAD_DURATION = "agent.pipeline.checkpoint.load.duration";
    public static final String RUN_DURATION = "agent.pipeline.run.duration";
    public static final String NODE_RECOVERIES = "agent.pipeline.node.recoveries";
    public static final String INPUT_REQUESTS = "agent.pipeline.input.requests";
    public static final String INPUT_WAIT_DURATION = "agent.pipeline.input.wait.duration";

    private final MeterRegistry registry;

    private PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A listener recording into {@code registry}. */
    public static PipelineMetrics bindTo(MeterRegistry registry) {
        return new PipelineMetrics(Objects.requireNonNull(registry, "registry"));
    }

    @Override
    public void onEvent(PipelineEvent event) {
        String pipeline = event.pipeline();
        if (event instanceof PipelineEvent.NodeStarted e) {
            counter(NODE_ATTEMPTS, "pipeline", pipeline, "node", e.node()).increment();
        } else if (event instanceof PipelineEvent.RetryScheduled e) {
            counter(NODE_RETRIES, "pipeline", pipeline, "node", e.node()).increment();
        } else if (event instanceof PipelineEvent.RollbackPerformed e) {
            counter(NODE_ROLLBACKS, "pipeline", pipeline, "node", e.node()).increment();
            int performed = e.toolRollback().performed().size();
            int failed = e.toolRollback().failures().size();
            if (performed > 0) {
                counter(INVERSE_CALLS, "pipeline", pipeline, "node", e.node(), "outcome", "success")
                        .increment(performed);
            }
            if (failed > 0) {
                counter(INVERSE_CALLS, "pipeline", pipeline, "node", e.node(), "outcome", "failure")
                        .increment(failed);
            }
        } else if (event instanceof PipelineEvent.ValidationFailed e) {
            var conditions = new LinkedHashSet<String>();
            e.violations().forEach(v -> conditions.add(v.condition()));
            conditions.forEach(condition -> counter(
                            VALIDATION_FAILURES,
                            "pipeline",
                            pipeline,
                            "node",
                            e.node(),
                            "condition",
                            condition,
                            "phase",
                            e.phase().tag())
                    .increment());
        } else if (event instanceof PipelineEvent.CheckpointSaved e) {
            DistributionSummary.builder(CHECKPOINT_SIZE)
                    .baseUnit("bytes")
                    .tags("pipeline", pipeline)
                    .register(registry)
                    .record(e.sizeBytes());
        } else if (event instanceof PipelineEvent.CheckpointSaveFailed e) {
            counter(CHECKPOINT_SAVE_FAILURES, "pipeline", pipeline, "retried", Boolean.toString(e.willRetry()))
                    .increment();
        } else if (event instanceof PipelineEvent.AttemptRecovered e) {
            counter(NODE_RECOVERIES, "pipeline", pipeline, "node", e.node()).increment();
        } else if (event instanceof PipelineEvent.InputRequested e) {
            counter(INPUT_REQUESTS, "pipeline", pipeline, "node", e.request().node())
                    .increment();
        } else if (event instanceof PipelineEvent.InputReceived e) {
            Timer.builder(INPUT_WAIT_DURATION)
                    .tags("pipeline", pipeline, "node", e.request().node())
                    .register(registry)
                    .record(e.waited());
        }
        // NodeSucceeded, NodeFailed, CheckpointSaved's time, CheckpointLoaded, RunStarted and RunFinished: timed by the
        // pipeline's observations of its operations.
    }

    private Counter counter(String name, String... tags) {
        return Counter.builder(name).tags(tags).register(registry);
    }

    @Override
    public String toString() {
        return "PipelineMetrics[" + registry.getClass().getSimpleName() + "]";
    }
}
