package dev.agentpersistence.pipeline;

import java.nio.file.Path;
import java.time.Duration;

/** A worker JVM for {@link PipelineWorkersKillTest}: works the queue of a SQLite file until it is killed. */
public final class WorkerProcess {
    private WorkerProcess() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        var storage = WorkerFixture.storage(dir);
        var workers = PipelineWorkers.builder(WorkerFixture.pipeline(storage, dir.resolve("executions.log"), true))
                .workerId("child")
                .threads(2)
                .leaseTime(Duration.ofMillis(Long.parseLong(args[1])))
                .pollInterval(Duration.ofMillis(50))
                .build()
                .start();
        System.out.println("WORKING " + workers.workerId());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
