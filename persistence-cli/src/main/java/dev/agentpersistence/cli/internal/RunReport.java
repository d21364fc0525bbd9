package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.lease.Lease;
import dev.agentpersistence.pipeline.PipelineQueue;
import dev.agentpersistence.pipeline.QueuedRun;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * Who runs a pipeline run: the runner token on its newest checkpoint and, when the run went through its pipeline's
 * durable queue, the run's place in the queue and its lease (owner, fencing token, expiry). Reads only, as every
 * inspection does.
 */
public final class RunReport {
    private static final String PIPELINE_KEY = "pipeline";
    private static final String RUNNER_KEY = "pipeline.runner";
    private static final String RUN_PREFIX = "@run/";

    private RunReport() {}

    /**
     * The report of the run stored as {@code agentId} ({@code @run/<id>}, or the raw run id of an earlier version):
     * {@code runId}, {@code pipeline}, {@code runner} (when the newest checkpoint names one), {@code queue}
     * ({@code status}, {@code retries}, {@code notBefore}, {@code detail}) and {@code lease} ({@code owner},
     * {@code token}, {@code expiresAt}, {@code live}: false once the run is over), each absent when the run has none.
     *
     * @throws CliException when the agent has no checkpoint of a pipeline run
     */
    public static ObjectNode of(Store store, String agentId, Clock clock) {
        AgentCheckpoint newest = newestOfRun(store, agentId)
                .orElseThrow(
                        () -> CliException.notFound("no pipeline run '" + agentId + "' in " + store.description()));
        String pipeline = newest.metadata().get(PIPELINE_KEY);
        String runId = agentId.startsWith(RUN_PREFIX) ? agentId.substring(RUN_PREFIX.length()) : agentId;
        ObjectNode json = Json.object();
        json.put("runId", runId);
        json.put("pipeline", pipeline);
        String runner = newest.metadata().get(RUNNER_KEY);
        if (runner != null) {
            json.put("runner", runner);
        }
        var queue = PipelineQueue.of(store.provider(), pipeline, clock);
        Optional<Lease> lease;
        try {
            lease = queue.lease(runId);
        } catch (InvalidIdentifierException e) {
            return json; // a run whose id does not fit a queue's lease name never went through a queue
        }
        Optional<QueuedRun> queued =
                queue.runs().stream().filter(run -> run.runId().equals(runId)).findFirst();
        queued.ifPresent(run -> queued(json.putObject("queue"), run));
        // A finished run's lease may be left to run out: nobody holds a run that is over.
        boolean finished = queued.map(run -> isFinished(run.status())).orElse(false);
        lease.ifPresent(held -> lease(json.putObject("lease"), held, !finished && held.isLiveAt(clock.instant())));
        return json;
    }

    /** The newest checkpoint with the pipeline's name in its metadata (a tombstone carries none). */
    private static Optional<AgentCheckpoint> newestOfRun(Store store, String agentId) {
        var found = new AgentCheckpoint[1];
        store.pages(agentId, CheckpointFilter.builder().build(), page -> {
            for (int i = page.size() - 1; i >= 0 && found[0] == null; i--) {
                if (page.get(i).metadata().containsKey(PIPELINE_KEY)) {
                    found[0] = page.get(i);
                }
            }
            return found[0] == null;
        });
        return Optional.ofNullable(found[0]);
    }

    private static void queued(ObjectNode json, QueuedRun run) {
        json.put("status", run.status().name().toLowerCase(Locale.ROOT));
        json.put("retries", run.retries());
        run.notBefore().ifPresent(at -> json.put("notBefore", at.toString()));
        run.detail().ifPresent(detail -> json.put("detail", detail));
    }

    private static boolean isFinished(QueuedRun.Status status) {
        return status == QueuedRun.Status.COMPLETED
                || status == QueuedRun.Status.FAILED
                || status == QueuedRun.Status.CANCELLED;
    }

    private static void lease(ObjectNode json, Lease lease, boolean live) {
        json.put("owner", lease.owner());
        json.put("token", lease.token());
        json.put("expiresAt", lease.expiresAt().toString());
        json.put("live", live);
    }
}
