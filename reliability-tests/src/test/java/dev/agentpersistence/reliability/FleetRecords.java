package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.queue.QueueItem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a fleet left in its store, read straight from the provider: what a pipeline's queue holds (the entries of its
 * log in the {@code queue} namespace, one checkpoint per entry with its kind and run in the metadata, and where the
 * store has native queues its run items) and the checkpoints of a run (in the runs' namespace), with the claims a
 * resuming runner saves told apart from node checkpoints.
 */
final class FleetRecords {
    private static final String QUEUE_KIND = "queue.kind";
    private static final String QUEUE_RUN = "queue.run";
    private static final String CLAIMED = "pipeline.claimed";
    private static final String ATTEMPTS = "pipeline.attempts";

    private static final ObjectMapper JSON = new ObjectMapper();

    private FleetRecords() {}

    /**
     * How many records of {@code kind} (for example {@code COMPLETED}) the pipeline's queue holds per run: the entries
     * of its log, and where the store has native queues, the run items whose status is {@code kind} (one per run).
     */
    static Map<String, Integer> queueEntries(PersistenceStorageProvider<?> storage, String pipeline, String kind) {
        var counts = new HashMap<String, Integer>();
        for (AgentCheckpoint entry : storage.getCheckpoints(queueName(pipeline))) {
            if (kind.equals(entry.metadata().get(QUEUE_KIND))) {
                counts.merge(entry.metadata().get(QUEUE_RUN), 1, Integer::sum);
            }
        }
        for (QueueItem item : items(storage, pipeline)) {
            if (kind.equals(status(item))) {
                counts.merge(item.id(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /**
     * What the pipeline's queue holds, oldest first: its log's entries as {@code KIND run}, then where the store has
     * native queues its run items as {@code run vN STATUS} (a write to an item changes its version).
     */
    static List<String> queueLog(PersistenceStorageProvider<?> storage, String pipeline) {
        var log = new ArrayList<String>();
        for (AgentCheckpoint entry : storage.getCheckpoints(queueName(pipeline))) {
            log.add(entry.metadata().get(QUEUE_KIND) + " " + entry.metadata().get(QUEUE_RUN));
        }
        for (QueueItem item : items(storage, pipeline)) {
            log.add(item.id() + " v" + item.version() + " " + status(item));
        }
        return log;
    }

    private static String queueName(String pipeline) {
        return AgentNamespace.of("queue").agentId(pipeline);
    }

    private static List<QueueItem> items(PersistenceStorageProvider<?> storage, String pipeline) {
        return storage.queues().map(queues -> queues.items(queueName(pipeline))).orElse(List.of());
    }

    /** The status a run item's body (the pipeline's JSON) names. */
    private static String status(QueueItem item) {
        try {
            return JSON.readTree(item.body()).path("status").asText();
        } catch (IOException e) {
            throw new AssertionError("run item '" + item.id() + "' is not JSON: " + e, e);
        }
    }

    /** Every checkpoint of run {@code runId}, oldest first. */
    static List<AgentCheckpoint> checkpoints(PersistenceStorageProvider<?> storage, String runId) {
        return storage.getCheckpoints(Pipeline.storedRunId(runId));
    }

    /**
     * Asserts that run {@code runId} completed exactly once, every node checkpointed once in order (claims aside), and
     * returns the attempt each node committed.
     */
    static Map<String, Integer> assertCompletedOnce(PersistenceStorageProvider<?> storage, String runId) {
        List<AgentCheckpoint> all = checkpoints(storage, runId);
        assertThat(all).as("checkpoints of %s", runId).isNotEmpty();
        assertThat(all.get(all.size() - 1).isTombstone())
                .as("run %s ends completed: %s", runId, nodeIds(all))
                .isTrue();
        assertThat(all.stream().filter(AgentCheckpoint::isTombstone).count())
                .as("run %s completed once: %s", runId, nodeIds(all))
                .isEqualTo(1);
        var nodes = all.stream()
                .filter(cp -> !cp.isTombstone() && !cp.metadata().containsKey(CLAIMED))
                .toList();
        var expected = new ArrayList<String>(List.of(Pipeline.START_NODE_ID));
        expected.addAll(FleetPipeline.nodeNames());
        assertThat(nodes)
                .extracting(AgentCheckpoint::nodeId)
                .as("run %s: one checkpoint per node, in order (all: %s)", runId, nodeIds(all))
                .containsExactlyElementsOf(expected);
        var attempts = new HashMap<String, Integer>();
        for (AgentCheckpoint node : nodes.subList(1, nodes.size())) {
            attempts.put(node.nodeId(), Integer.parseInt(node.metadata().get(ATTEMPTS)));
        }
        return attempts;
    }

    private static List<String> nodeIds(List<AgentCheckpoint> checkpoints) {
        return checkpoints.stream()
                .map(cp -> cp.nodeId() + (cp.metadata().containsKey(CLAIMED) ? "(claim)" : ""))
                .toList();
    }
}
