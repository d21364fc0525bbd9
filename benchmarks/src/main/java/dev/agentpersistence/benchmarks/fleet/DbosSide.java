package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Queue;
import java.net.URI;
import java.time.Duration;

/**
 * One DBOS instance of the fleet benchmark on the run's PostgreSQL server, its system tables in a schema of the run
 * ({@code dbos_<run id>}), with {@link FiveSteps} registered and a queue taking one workflow at a time.
 */
public final class DbosSide implements AutoCloseable {
    /** The queue of the queued measurement. */
    public static final String QUEUE = "bench-fleet";

    private final DBOS dbos;
    private final FiveSteps workflow;

    private DbosSide(DBOS dbos, FiveSteps workflow) {
        this.dbos = dbos;
        this.workflow = workflow;
    }

    /** Configures, registers and launches DBOS as executor {@code executorId}; launching recovers its workflows. */
    public static DbosSide launch(BenchSettings settings, String executorId, StepHook hook, Duration queuePolling) {
        var config = DBOSConfig.defaults("agent-persistence-bench")
                .withDatabaseUrl(settings.postgresUrl())
                .withDbUser(parameter(settings.postgresUrl(), "user", "postgres"))
                .withDbPassword(parameter(settings.postgresUrl(), "password", ""))
                .withDatabaseSchema(schema(settings))
                .withExecutorId(executorId)
                .withAdminServer(false);
        var dbos = new DBOS(config);
        FiveSteps proxy = dbos.registerProxy(FiveSteps.class, new DbosFiveSteps(dbos, hook));
        dbos.registerQueue(new Queue(QUEUE).withConcurrency(1).withPollingInterval(queuePolling));
        dbos.launch();
        return new DbosSide(dbos, proxy);
    }

    /** The schema of the run's DBOS tables. */
    public static String schema(BenchSettings settings) {
        return "dbos_" + settings.runId();
    }

    /** Runs workflow {@code id} now, in this thread's call, and waits for its result. */
    public int run(String id) throws InterruptedException {
        return dbos.startWorkflow(() -> workflow.run(0), new StartWorkflowOptions(id))
                .getResult();
    }

    /** Starts workflow {@code id} without waiting. */
    public void start(String id) {
        dbos.startWorkflow(() -> workflow.run(0), new StartWorkflowOptions(id));
    }

    /** Puts workflow {@code id} on the queue. */
    public void enqueue(String id) {
        dbos.startWorkflow(() -> workflow.run(0), new StartWorkflowOptions(id).withQueue(QUEUE));
    }

    /** Waits for the result of workflow {@code id}, started anywhere. */
    public int await(String id) throws InterruptedException {
        return dbos.<Integer, InterruptedException>retrieveWorkflow(id).getResult();
    }

    @Override
    public void close() {
        dbos.close();
    }

    /** A query parameter of a JDBC URL, else {@code fallback} (DBOS takes user and password apart from the URL). */
    private static String parameter(String jdbcUrl, String name, String fallback) {
        String query = URI.create(jdbcUrl.substring("jdbc:".length())).getQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith(name + "=")) {
                    return part.substring(name.length() + 1);
                }
            }
        }
        return fallback;
    }
}
