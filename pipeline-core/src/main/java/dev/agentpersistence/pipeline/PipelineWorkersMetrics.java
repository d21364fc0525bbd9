package dev.agentpersistence.pipeline;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records {@link PipelineWorkers} events as Micrometer meters: {@code builder.listener(PipelineWorkersMetrics
 * .bindTo(registry))}.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code pipeline})</caption>
 *   <tr><th>name</th><th>type</th><th>other tags</th><th>recorded</th></tr>
 *   <tr><td>{@value #QUEUE_DEPTH}</td><td>gauge</td><td></td><td>runs waiting for a worker, at the last poll
 *       ({@link WorkerEvent.QueuePolled#runnable})</td></tr>
 *   <tr><td>{@value #IN_FLIGHT}</td><td>gauge</td><td></td><td>runs the workers of this registry run now</td></tr>
 *   <tr><td>{@value #CLAIMS}</td><td>counter</td><td>{@code recovery} ({@code true}|{@code false})</td>
 *       <td>per run taken</td></tr>
 *   <tr><td>{@value #RECOVERY_DURATION}</td><td>timer</td><td></td><td>per run taken over from a worker that did
 *       not finish it: from the end of its lease to the claim</td></tr>
 *   <tr><td>{@value #LEASE_RENEWALS}</td><td>counter</td><td></td><td>per lease renewal</td></tr>
 *   <tr><td>{@value #LEASE_LOSSES}</td><td>counter</td><td></td><td>per lease lost while the run worked</td></tr>
 *   <tr><td>{@value #RUNS_RELEASED}</td><td>counter</td><td>{@code outcome} (the {@link QueuedRun.Status} in
 *       lower case)</td><td>per try finished</td></tr>
 * </table>
 */
public final class PipelineWorkersMetrics implements WorkerListener {
    public static final String QUEUE_DEPTH = "agent.pipeline.workers.queue.depth";
    public static final String IN_FLIGHT = "agent.pipeline.workers.in.flight";
    public static final String CLAIMS = "agent.pipeline.workers.claims";
    public static final String RECOVERY_DURATION = "agent.pipeline.workers.recovery.duration";
    public static final String LEASE_RENEWALS = "agent.pipeline.workers.lease.renewals";
    public static final String LEASE_LOSSES = "agent.pipeline.workers.lease.losses";
    public static final String RUNS_RELEASED = "agent.pipeline.workers.runs.released";

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> depth = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    private PipelineWorkersMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A listener recording into {@code registry}. */
    public static PipelineWorkersMetrics bindTo(MeterRegistry registry) {
        return new PipelineWorkersMetrics(Objects.requireNonNull(registry, "registry"));
    }

    @Override
    public void onEvent(WorkerEvent event) {
        String pipeline = event.pipeline();
        if (event instanceof WorkerEvent.QueuePolled e) {
            gauge(depth, QUEUE_DEPTH, pipeline).set(e.runnable());
        } else if (event instanceof WorkerEvent.RunClaimed e) {
            gauge(inFlight, IN_FLIGHT, pipeline).incrementAndGet();
            registry.counter(
                            CLAIMS,
                            "pipeline",
                            pipeline,
                            "recovery",
                            Boolean.toString(e.recoveredAfter().isPresent()))
                    .increment();
            e.recoveredAfter()
                    .ifPresent(after -> Timer.builder(RECOVERY_DURATION)
                            .tag("pipeline", pipeline)
                            .register(registry)
                            .record(after));
        } else if (event instanceof WorkerEvent.LeaseRenewed) {
            registry.counter(LEASE_RENEWALS, "pipeline", pipeline).increment();
        } else if (event instanceof WorkerEvent.LeaseLost) {
            registry.counter(LEASE_LOSSES, "pipeline", pipeline).increment();
        } else if (event instanceof WorkerEvent.RunReleased e) {
            gauge(inFlight, IN_FLIGHT, pipeline).decrementAndGet();
            registry.counter(
                            RUNS_RELEASED,
                            "pipeline",
                            pipeline,
                            "outcome",
                            e.outcome().name().toLowerCase(Locale.ROOT))
                    .increment();
        }
    }

    private AtomicInteger gauge(Map<String, AtomicInteger> values, String name, String pipeline) {
        return values.computeIfAbsent(pipeline, p -> {
            var value = new AtomicInteger();
            Gauge.builder(name, value, AtomicInteger::get).tag("pipeline", p).register(registry);
            return value;
        });
    }
}
