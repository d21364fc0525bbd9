package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.pipeline.PipelineWorkers;
import java.time.Duration;

/**
 * The process the fleet benchmark kills: it runs one run to its third step and blocks there. Arguments: {@code ours
 * <lease ms>} (a {@link PipelineWorkers} worker taking the run the launcher queued) or {@code dbos <workflow id>
 * <executor id>} (DBOS starting the workflow). Prints {@code READY}, then {@code IN-STEP 3}.
 */
public final class RecoveryChildMain {
    private RecoveryChildMain() {}

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        StepHook block = StepHook.blockAt(3);
        if (args[0].equals("ours")) {
            var storage = Backend.of("postgresql").driver().open(settings, FleetBenchmarkMain.NAMESPACE, false);
            PipelineWorkers.builder(FleetPipelines.fiveSteps(storage, block))
                    .workerId("killed")
                    .leaseTime(Duration.ofMillis(Long.parseLong(args[1])))
                    .pollInterval(Duration.ofMillis(10))
                    .build()
                    .start();
            System.out.println("READY");
        } else {
            var dbos = DbosSide.launch(settings, args[2], block, Duration.ofSeconds(1));
            System.out.println("READY");
            dbos.start(args[1]);
        }
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
