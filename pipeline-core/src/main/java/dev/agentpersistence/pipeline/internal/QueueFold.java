package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * What a run queue's entries add up to, folded one entry at a time: every run in the order it was submitted, and the
 * version and checkpoint id of the last entry folded. It keeps at most {@link #MAX_FINISHED} finished runs (the one
 * that finished first goes first), so it stays bounded by the runs not finished; the rule depends only on the entries,
 * so every reader, folding from the start or from a snapshot, ends with the same runs. Not thread-safe.
 */
final class QueueFold {
    /** The most finished runs kept. */
    static final int MAX_FINISHED = 1_000;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final LinkedHashMap<String, RunQueue.Run> runs = new LinkedHashMap<>();
    private final LinkedHashSet<String> finished = new LinkedHashSet<>();
    private long version = -1;
    private String checkpointId;
    private long snapshotVersion = -1;

    /** The version of the last entry folded; -1 before the first. */
    long version() {
        return version;
    }

    /** The checkpoint id of the last entry folded. */
    String checkpointId() {
        return checkpointId;
    }

    /** The version of the newest snapshot folded; -1 when none was. */
    long snapshotVersion() {
        return snapshotVersion;
    }

    Optional<RunQueue.Run> run(String runId) {
        return Optional.ofNullable(runs.get(runId));
    }

    List<RunQueue.Run> runs() {
        return List.copyOf(runs.values());
    }

    void clear() {
        runs.clear();
        finished.clear();
        version = -1;
        checkpointId = null;
        snapshotVersion = -1;
    }

    /** Folds one entry in. */
    void apply(RunQueue.Entry entry, String entryCheckpointId) {
        version = entry.version();
        checkpointId = entryCheckpointId;
        RunQueue.Run before = runs.get(entry.runId());
        if (entry.kind() == RunQueue.Kind.SUBMITTED) {
            if (before == null) {
                runs.put(
                        entry.runId(),
                        new RunQueue.Run(
                                entry.runId(),
                                entry.payload(),
                                RunQueue.Kind.SUBMITTED,
                                0,
                                null,
                                null,
                                null,
                                entry.version(),
                                entry.version()));
            }
            return;
        }
        if (before == null) {
            return; // its submission was trimmed away, or it finished long ago and was dropped
        }
        var change =
                new RunQueue.Change(entry.kind(), entry.payload(), entry.attempt(), entry.notBefore(), entry.detail());
        runs.put(entry.runId(), before.after(change, entry.version()));
        finished.remove(entry.runId());
        if (RunQueue.isFinished(entry.kind())) {
            finished.add(entry.runId());
            while (finished.size() > MAX_FINISHED) {
                String oldest = finished.iterator().next();
                finished.remove(oldest);
                runs.remove(oldest);
            }
        }
    }

    /** The state as JSON, for a snapshot entry. */
    JsonNode snapshot() {
        ObjectNode root = JSON.objectNode();
        ArrayNode all = root.putArray("runs");
        for (RunQueue.Run run : runs.values()) {
            ObjectNode node = all.addObject();
            node.put("runId", run.runId());
            node.set("input", run.input());
            node.put("status", run.status().name());
            node.put("attempt", run.attempt());
            if (run.notBefore() != null) {
                node.put("notBefore", run.notBefore().toString());
            }
            if (run.answer() != null) {
                node.set("answer", run.answer());
            }
            if (run.detail() != null) {
                node.put("detail", run.detail());
            }
            node.put("submittedAt", run.submittedAt());
            node.put("version", run.version());
        }
        ArrayNode order = root.putArray("finished");
        finished.forEach(order::add);
        return root;
    }

    /**
     * Replaces the state by a snapshot's, saved as entry {@code snapshotVersion}.
     *
     * @throws IllegalArgumentException when {@code snapshot} is not a snapshot
     */
    void restore(JsonNode snapshot, long snapshotVersion, String snapshotCheckpointId) {
        if (snapshot == null
                || !snapshot.path("runs").isArray()
                || !snapshot.path("finished").isArray()) {
            throw new IllegalArgumentException("no 'runs' and 'finished' arrays");
        }
        var restored = new ArrayList<RunQueue.Run>();
        for (JsonNode node : snapshot.get("runs")) {
            JsonNode notBefore = node.get("notBefore");
            JsonNode detail = node.get("detail");
            restored.add(new RunQueue.Run(
                    text(node, "runId"),
                    node.get("input"),
                    RunQueue.Kind.valueOf(text(node, "status")),
                    node.path("attempt").asInt(),
                    notBefore == null ? null : Instant.parse(notBefore.asText()),
                    node.get("answer"),
                    detail == null ? null : detail.asText(),
                    node.path("submittedAt").asLong(),
                    node.path("version").asLong()));
        }
        clear();
        restored.forEach(run -> runs.put(run.runId(), run));
        snapshot.get("finished").forEach(id -> finished.add(id.asText()));
        version = snapshotVersion;
        checkpointId = snapshotCheckpointId;
        this.snapshotVersion = snapshotVersion;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("a run without '" + field + "'");
        }
        return value.asText();
    }
}
