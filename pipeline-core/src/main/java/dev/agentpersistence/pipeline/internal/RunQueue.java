package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable queue of one pipeline's submitted runs: an append-only log kept as the agent
 * {@code NAMESPACE.agentId(pipeline)}, one entry per version (submitted, waiting, answered, retry, finished,
 * cancelled), appended with the provider's insert-if-absent. What a run is now is the fold of its entries
 * ({@link #runs}), so any number of workers in any number of processes share one queue through any provider.
 */
public final class RunQueue {
    /** The namespace of queue logs. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("queue");

    private static final String KIND = "queue.kind";
    private static final String RUN = "queue.run";
    private static final String ATTEMPT = "queue.attempt";
    private static final String NOT_BEFORE = "queue.notBefore";
    private static final String DETAIL = "queue.detail";
    private static final String PAYLOAD = "payload";
    private static final int MAX_APPEND_ATTEMPTS = 50;

    /** What an entry says about its run. */
    public enum Kind {
        SUBMITTED,
        WAITING,
        ANSWERED,
        RETRY,
        COMPLETED,
        FAILED,
        CANCELLED
    }

    /** One entry of the log. */
    public record Entry(
            long version, Kind kind, String runId, JsonNode payload, int attempt, Instant notBefore, String detail) {}

    /** A run as its entries leave it: the input it was submitted with, where it stands, and the answer it waits for. */
    public record Run(
            String runId,
            JsonNode input,
            Kind status,
            int attempt,
            Instant notBefore,
            JsonNode answer,
            String detail,
            long submittedAt) {

        /** Whether a worker may run it at {@code now}. */
        public boolean isRunnable(Instant now) {
            return switch (status) {
                case SUBMITTED, ANSWERED -> true;
                case RETRY -> notBefore == null || !now.isBefore(notBefore);
                default -> false;
            };
        }
    }

    private final PersistenceStorageProvider<?> storage;
    private final String agentId;
    private final Clock clock;

    public RunQueue(PersistenceStorageProvider<?> storage, String pipeline, Clock clock) {
        this.storage = storage;
        this.agentId = NAMESPACE.agentId(pipeline, "pipeline name");
        this.clock = clock;
    }

    /** The agent id of the log. */
    public String agentId() {
        return agentId;
    }

    /** Every run of the queue, in the order they were submitted. */
    public Map<String, Run> runs() {
        var runs = new LinkedHashMap<String, Run>();
        for (AgentCheckpoint record : storage.getCheckpoints(agentId)) {
            Entry entry = parse(record);
            Run before = runs.get(entry.runId());
            if (entry.kind() == Kind.SUBMITTED) {
                if (before == null) {
                    runs.put(
                            entry.runId(),
                            new Run(
                                    entry.runId(),
                                    entry.payload(),
                                    Kind.SUBMITTED,
                                    0,
                                    null,
                                    null,
                                    null,
                                    entry.version()));
                }
                continue;
            }
            if (before == null) {
                continue; // its submission was trimmed away with the rest of a finished run
            }
            runs.put(
                    entry.runId(),
                    new Run(
                            before.runId(),
                            before.input(),
                            entry.kind(),
                            entry.kind() == Kind.RETRY ? entry.attempt() : before.attempt(),
                            entry.notBefore(),
                            entry.kind() == Kind.ANSWERED ? entry.payload() : null,
                            entry.detail(),
                            before.submittedAt()));
        }
        return runs;
    }

    /** The run {@code runId} as the log leaves it now. */
    public Optional<Run> run(String runId) {
        return Optional.ofNullable(runs().get(runId));
    }

    /** Appends an entry at the end of the log, after whatever other workers appended. */
    public void append(Kind kind, String runId, JsonNode payload, int attempt, Instant notBefore, String detail) {
        var metadata = new HashMap<String, String>();
        metadata.put(KIND, kind.name());
        metadata.put(RUN, runId);
        metadata.put(ATTEMPT, Integer.toString(attempt));
        if (notBefore != null) {
            metadata.put(NOT_BEFORE, notBefore.toString());
        }
        if (detail != null) {
            metadata.put(DETAIL, detail.length() > 2_000 ? detail.substring(0, 2_000) + "…" : detail);
        }
        CheckpointConflictException last = null;
        for (int attempts = 0; attempts < MAX_APPEND_ATTEMPTS; attempts++) {
            long version = storage.getLatestCheckpoint(agentId)
                    .map(cp -> cp.version() + 1)
                    .orElse(0L);
            var builder = AgentCheckpoint.builder()
                    .checkpointId("q-" + version)
                    .agentId(agentId)
                    .version(version)
                    .createdAt(clock.instant())
                    .nodeId(kind.name().toLowerCase(java.util.Locale.ROOT))
                    .metadata(metadata);
            if (payload != null) {
                builder.state(PAYLOAD, payload);
            }
            try {
                storage.saveCheckpoint(agentId, builder.build());
                return;
            } catch (CheckpointConflictException e) {
                last = e; // another worker appended first: append after it
            }
        }
        throw last;
    }

    /**
     * Deletes the entries before the oldest one of a run that is not finished, so the log keeps only what some run
     * still needs; best effort.
     */
    public void trim() {
        List<AgentCheckpoint> records = storage.getCheckpoints(agentId);
        Map<String, Run> runs = runs();
        var open = new ArrayList<String>();
        runs.values().forEach(run -> {
            if (run.status() != Kind.COMPLETED && run.status() != Kind.FAILED && run.status() != Kind.CANCELLED) {
                open.add(run.runId());
            }
        });
        long keepFrom = records.isEmpty() ? 0 : records.get(records.size() - 1).version();
        for (AgentCheckpoint record : records) {
            if (open.contains(record.metadata().get(RUN))) {
                keepFrom = Math.min(keepFrom, record.version());
                break;
            }
        }
        if (keepFrom > 0) {
            try {
                storage.deleteCheckpointsBefore(agentId, keepFrom);
            } catch (RuntimeException e) {
                // a provider that cannot delete keeps the whole log
            }
        }
    }

    private Entry parse(AgentCheckpoint record) {
        Map<String, String> metadata = record.metadata();
        try {
            String notBefore = metadata.get(NOT_BEFORE);
            return new Entry(
                    record.version(),
                    Kind.valueOf(require(metadata, KIND)),
                    require(metadata, RUN),
                    record.state().get(PAYLOAD),
                    Integer.parseInt(require(metadata, ATTEMPT)),
                    notBefore == null ? null : Instant.parse(notBefore),
                    metadata.get(DETAIL));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new CorruptCheckpointException(
                    agentId, record.checkpointId(), "run queue entry", "not a queue entry: " + e.getMessage(), e);
        }
    }

    private static String require(Map<String, String> metadata, String key) {
        String value = metadata.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no '" + key + "'");
        }
        return value;
    }
}
