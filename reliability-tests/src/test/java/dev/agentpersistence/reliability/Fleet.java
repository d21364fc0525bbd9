package dev.agentpersistence.reliability;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.PipelineQueue;
import dev.agentpersistence.tck.ChildJvm;
import java.io.FileOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One fleet of the fleet tests: a pipeline of a fresh name whose queue lives on {@code backend}, the
 * {@link FleetEffects} tables of a fresh name on the shared PostgreSQL server, and the {@link FleetWorkerMain} JVMs
 * started for it. Closing it kills the workers still alive, drops the tables and closes the store.
 */
final class Fleet implements AutoCloseable {
    /** A started worker JVM. */
    record Worker(String id, ChildJvm jvm, long pid) {}

    final String pipeline = Ids.unique("fleet");
    final String table =
            "fleet_effects_" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    final String postgres = SharedServers.postgres();
    final PersistenceStorageProvider<CheckpointFilter> storage;
    final FleetEffects effects;
    final PipelineQueue queue;
    private final Backend backend;
    private final Path settings;
    private final Duration lease;
    private final Duration poll;
    private final int threads;
    private final List<Worker> workers = new ArrayList<>();

    Fleet(Backend backend, Path dir, Duration lease, Duration poll, int threads) throws Exception {
        this.backend = backend;
        this.lease = lease;
        this.poll = poll;
        this.threads = threads;
        this.settings = dir.resolve(pipeline + ".properties");
        var properties = new Properties();
        properties.putAll(backend.settings());
        try (var out = new FileOutputStream(settings.toFile())) {
            properties.store(out, null);
        }
        this.storage = backend.open();
        this.effects = FleetEffects.open(postgres, table, "test").create();
        this.queue = PipelineQueue.of(storage, pipeline, Clock.systemUTC());
    }

    /** Run {@code i}'s id. */
    String runId(int i) {
        return pipeline + "-r" + i;
    }

    /** Submits runs {@code 0..runs-1} with an empty state. */
    List<String> submit(int runs) {
        var ids = new ArrayList<String>();
        for (int i = 0; i < runs; i++) {
            queue.submit(runId(i), FleetPipeline.CODEC.encode(List.of()));
            ids.add(runId(i));
        }
        return ids;
    }

    /** Starts worker {@code id} and waits until it works; {@code pauseRuns} as {@link FleetPipeline} takes it. */
    Worker start(String id, String pauseRuns, Duration pause) throws Exception {
        ChildJvm jvm = ChildJvms.start(
                FleetWorkerMain.class,
                backend.provider(),
                settings.toString(),
                postgres,
                table,
                pipeline,
                id,
                Long.toString(lease.toMillis()),
                Long.toString(poll.toMillis()),
                Integer.toString(threads),
                pauseRuns == null ? "-" : pauseRuns,
                Long.toString(pause.toMillis()));
        var starting = new Worker(id, jvm, -1);
        synchronized (workers) {
            workers.add(starting);
        }
        String line = jvm.awaitLine("WORKING ", Duration.ofSeconds(90));
        var worker = new Worker(id, jvm, Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)));
        synchronized (workers) {
            workers.set(workers.indexOf(starting), worker);
        }
        return worker;
    }

    /** Every worker started so far, dead or alive. */
    List<Worker> workers() {
        synchronized (workers) {
            return List.copyOf(workers);
        }
    }

    /** Sends {@code signal} ({@code STOP}, {@code CONT}) to a worker's process. */
    static void signal(Worker worker, String signal) throws Exception {
        var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(worker.pid()))
                .redirectErrorStream(true)
                .start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + worker.pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() throws Exception {
        for (Worker worker : workers()) {
            if (worker.jvm().isAlive() && worker.pid() > 0) {
                signal(worker, "CONT"); // a stopped JVM dies on SIGKILL too, but leave none stopped
            }
            worker.jvm().close();
        }
        try {
            effects.drop();
        } finally {
            effects.close();
            storage.close();
        }
    }
}
