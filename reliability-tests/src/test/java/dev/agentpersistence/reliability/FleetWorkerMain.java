package dev.agentpersistence.reliability;

import dev.agentpersistence.pipeline.PipelineWorkers;
import dev.agentpersistence.pipeline.PipelineWorkersMetrics;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.WorkerEvent;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Properties;

/**
 * A worker JVM of the fleet tests: {@link PipelineWorkers} over {@link FleetPipeline} until it is killed. Arguments:
 * {@code <provider> <settings.properties> <postgres url> <effects table> <pipeline> <worker id> <lease ms> <poll ms>
 * <threads> <pause run prefix or -> <pause ms>}. Prints {@code WORKING <worker> <pid>}, then one line per event:
 * {@code CLAIMED <run> <epoch ms> <recovered after ms, -1 when not a recovery>}, {@code RELEASED <run> <status> <epoch
 * ms>}, {@code LOST <run> <epoch ms>}.
 */
public final class FleetWorkerMain {
    private FleetWorkerMain() {}

    public static void main(String[] args) throws Exception {
        var out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        var properties = new Properties();
        try (var in = new FileInputStream(args[1])) {
            properties.load(in);
        }
        var settings = new LinkedHashMap<String, String>();
        properties.stringPropertyNames().forEach(k -> settings.put(k, properties.getProperty(k)));
        String worker = args[5];
        var storage = PersistenceStorageProviders.load(args[0], ProviderConfig.of(settings));
        var effects = FleetEffects.open(args[2], args[3], worker);
        String pauseRuns = "-".equals(args[9]) ? null : args[9];
        var pipeline = FleetPipeline.pipeline(args[4], storage, effects, pauseRuns, Long.parseLong(args[10]), out);
        var meters = new SimpleMeterRegistry();
        var workers = PipelineWorkers.builder(pipeline)
                .workerId(worker)
                .leaseTime(Duration.ofMillis(Long.parseLong(args[6])))
                .pollInterval(Duration.ofMillis(Long.parseLong(args[7])))
                .threads(Integer.parseInt(args[8]))
                .retryPolicy(RetryPolicy.custom().maxRetries(10).build())
                .listener(PipelineWorkersMetrics.bindTo(meters))
                .listener(event -> print(out, event))
                .build()
                .start();
        out.println(
                "WORKING " + workers.workerId() + " " + ProcessHandle.current().pid());
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void print(PrintStream out, WorkerEvent event) {
        long at = event.at().toEpochMilli();
        if (event instanceof WorkerEvent.RunClaimed claimed) {
            out.println("CLAIMED " + claimed.runId() + " " + at + " "
                    + claimed.recoveredAfter().map(Duration::toMillis).orElse(-1L));
        } else if (event instanceof WorkerEvent.RunReleased released) {
            out.println("RELEASED " + released.runId() + " " + released.outcome() + " " + at);
        } else if (event instanceof WorkerEvent.LeaseLost lost) {
            out.println("LOST " + lost.runId() + " " + at);
        }
    }
}
