package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.pipeline.PipelineWorkers;
import dev.agentpersistence.pipeline.QueuedRun;
import dev.agentpersistence.pipeline.WorkerEvent;
import java.time.Duration;

/**
 * One worker process of {@link QueueContentionMain}'s {@code --jvms} mode. Arguments: the backend, the pipeline's name,
 * {@code native} or {@code log} (the queue kept in the store's native queue or in the log of checkpoints), the worker
 * threads and the poll interval in milliseconds. Prints {@code READY} once its workers poll, then {@code DONE <run>}
 * for each run it completed; runs until killed.
 */
public final class ContentionChildMain {
    private ContentionChildMain() {}

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        PersistenceStorageProvider<CheckpointFilter> store =
                Backend.of(args[0]).driver().open(settings, FleetBenchmarkMain.NAMESPACE, false);
        var storage = args[2].equals("native") ? store : new LogOnlyStorage(store);
        PipelineWorkers.builder(FleetPipelines.fiveSteps(storage, StepHook.NONE, args[1]))
                .workerId("jvm-" + ProcessHandle.current().pid())
                .threads(Integer.parseInt(args[3]))
                .pollInterval(Duration.ofMillis(Integer.parseInt(args[4])))
                .listener(event -> {
                    if (event instanceof WorkerEvent.RunReleased released
                            && released.outcome() == QueuedRun.Status.COMPLETED) {
                        System.out.println("DONE " + released.runId());
                        System.out.flush();
                    }
                })
                .build()
                .start();
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
