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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable queue of one pipeline's submitted runs: an append-only log kept as the agent
 * {@code NAMESPACE.agentId(pipeline)}, one entry per version (submitted, waiting, answered, retry, finished,
 * cancelled), each saved with the provider's insert-if-absent at the version after the head its writer read. What a run
 * is now is the fold of its entries, so any number of workers in any number of processes share one queue through any
 * provider.
 *
 * <p><b>Writes decide on the head they read.</b> {@link #update} reads the log's head, lets the caller decide from the
 * run as it stands there, and saves the entry only right after that head (compare-and-set); when another writer
 * appended first, it reads again and the caller decides again, so no entry is ever based on a state it did not see (a
 * cancellation that loses to a completion finds the run finished and appends nothing).
 *
 * <p><b>Reads are incremental.</b> This object keeps the fold of the entries it read: a read first loads the head, and
 * only when it moved reads the entries after the last one folded (by id, a few at a time) or, past that, the log from
 * its newest snapshot. Every {@value #SNAPSHOT_EVERY} entries a writer appends a snapshot (the whole fold as one entry)
 * and deletes the entries before the snapshot before it (where the provider can delete), so the log, a full read and
 * the fold stay bounded by the runs not finished plus {@link QueueFold#MAX_FINISHED} finished ones. A version the
 * trimming freed lies below two snapshots, so a writer that read the head just before its write cannot reuse it.
 * Thread-safe.
 */
public final class RunQueue implements RunStore {
    /** The namespace of queue logs. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("queue");

    /** How many entries a snapshot follows the one before. */
    static final int SNAPSHOT_EVERY = 64;

    private static final Logger LOG = LoggerFactory.getLogger(RunQueue.class);
    private static final String KIND = "queue.kind";
    private static final String SNAPSHOT = "SNAPSHOT";
    private static final String RUN = "queue.run";
    private static final String ATTEMPT = "queue.attempt";
    private static final String NOT_BEFORE = "queue.notBefore";
    private static final String DETAIL = "queue.detail";
    private static final String PAYLOAD = "payload";
    private static final int MAX_APPEND_ATTEMPTS = 50;
    private static final int MAX_READS_BY_ID = 8;

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

    /**
     * A run as its entries leave it: the input it was submitted with, where it stands, the answer it waits for, and the
     * version of the last entry about it.
     */
    public record Run(
            String runId,
            JsonNode input,
            Kind status,
            int attempt,
            Instant notBefore,
            JsonNode answer,
            String detail,
            long submittedAt,
            long version) {

        /** Whether a worker may run it at {@code now}. */
        public boolean isRunnable(Instant now) {
            return switch (status) {
                case SUBMITTED, ANSWERED -> true;
                case RETRY -> notBefore == null || !now.isBefore(notBefore);
                default -> false;
            };
        }

        /** The run as an entry of {@code change} saved at {@code entryVersion} leaves it. */
        public Run after(Change change, long entryVersion) {
            return new Run(
                    runId,
                    input,
                    change.kind(),
                    change.kind() == Kind.RETRY ? change.attempt() : attempt,
                    change.notBefore(),
                    change.kind() == Kind.ANSWERED ? change.payload() : null,
                    change.detail(),
                    submittedAt,
                    entryVersion);
        }
    }

    /** An entry a writer decided to append about a run. */
    public record Change(Kind kind, JsonNode payload, int attempt, Instant notBefore, String detail) {
        /** Checks the kind. */
        public Change {
            Objects.requireNonNull(kind, "kind");
        }
    }

    /**
     * What a writer decided from the run as it stands: the entry to append (none: append nothing) and what to answer
     * its caller once that entry is saved.
     */
    public record Decision<R>(Optional<Change> change, R result) {
        /** Appends {@code change}, then answers {@code result}. */
        public static <R> Decision<R> append(Change change, R result) {
            return new Decision<>(Optional.of(change), result);
        }

        /** Appends nothing and answers {@code result}. */
        public static <R> Decision<R> keep(R result) {
            return new Decision<>(Optional.empty(), result);
        }
    }

    private final PersistenceStorageProvider<?> storage;
    private final String agentId;
    private final Clock clock;
    private final Object lock = new Object();
    private final QueueFold fold = new QueueFold();
    /** The entry the fold ends with, {@code null} for an empty log: the head a writer states. Guarded by the lock. */
    private AgentCheckpoint folded;

    public RunQueue(PersistenceStorageProvider<?> storage, String pipeline, Clock clock) {
        this.storage = storage;
        this.agentId = NAMESPACE.agentId(pipeline, "pipeline name");
        this.clock = clock;
    }

    /** The agent id of the log. */
    public String agentId() {
        return agentId;
    }

    /** Every run of the queue, in the order they were submitted, as the log's head leaves them now. */
    @Override
    public List<Run> runs() {
        synchronized (lock) {
            refresh();
            return fold.runs();
        }
    }

    /** The runs a worker may run at {@code now}, in the order they were submitted, as the log's head leaves them. */
    @Override
    public List<Run> runnable(Instant now) {
        synchronized (lock) {
            refresh();
            return runnable(fold.runs(), now);
        }
    }

    /**
     * The runs a worker may run at {@code now} as this object last read the log, without reading it: candidates only,
     * which a worker checks again with {@link #run} once it holds the run's lease.
     */
    @Override
    public List<Run> lastReadRunnable(Instant now) {
        synchronized (lock) {
            return runnable(fold.runs(), now);
        }
    }

    /** The runnable runs as this object last read the log. */
    @Override
    public int depth(Instant now) {
        return lastReadRunnable(now).size();
    }

    private static List<Run> runnable(List<Run> runs, Instant now) {
        var runnable = new ArrayList<Run>();
        for (Run run : runs) {
            if (run.isRunnable(now)) {
                runnable.add(run);
            }
        }
        return runnable;
    }

    /** The run {@code runId} as the log's head leaves it now. */
    @Override
    public Optional<Run> run(String runId) {
        synchronized (lock) {
            refresh();
            return fold.run(runId);
        }
    }

    /**
     * Decides on run {@code runId} as the log's head leaves it (empty: not in the queue) and appends the entry decided
     * right after that head; when another writer appended first, reads the new head and decides again.
     *
     * @return the result of the decision whose entry was saved (or that appended nothing)
     * @throws CheckpointConflictException when other writers kept appending first
     */
    @Override
    public <R> R update(String runId, Function<Optional<Run>, Decision<R>> decide) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(decide, "decide");
        CheckpointConflictException last = null;
        for (int attempts = 0; attempts < MAX_APPEND_ATTEMPTS; attempts++) {
            long head;
            Optional<AgentCheckpoint> headRecord;
            Optional<Run> current;
            synchronized (lock) {
                refresh();
                head = fold.version();
                headRecord = Optional.ofNullable(folded);
                current = fold.run(runId);
            }
            Decision<R> decision = decide.apply(current);
            if (decision.change().isEmpty()) {
                return decision.result();
            }
            AgentCheckpoint entry = entry(head + 1, runId, decision.change().get());
            try {
                storage.saveCheckpointAfter(agentId, headRecord, entry);
            } catch (CheckpointConflictException e) {
                last = e; // another writer appended after the head we read: decide again on the new head
                continue;
            }
            boolean snapshotDue;
            synchronized (lock) {
                if (fold.version() == head) {
                    foldIn(entry);
                }
                snapshotDue = entry.version() - fold.snapshotVersion() >= SNAPSHOT_EVERY;
            }
            if (snapshotDue) {
                snapshot();
            }
            return decision.result();
        }
        throw last;
    }

    /** Every runnable run: a log holds no claims. */
    @Override
    public List<Run> claim(Instant now, Instant holdUntil) {
        return runnable(now);
    }

    /** Nothing: a log holds no claims. */
    @Override
    public void hold(String runId, Instant until) {}

    /** Whether an entry of this kind finishes its run. */
    public static boolean isFinished(Kind kind) {
        return kind == Kind.COMPLETED || kind == Kind.FAILED || kind == Kind.CANCELLED;
    }

    /**
     * Appends the whole fold as one entry after the head, then deletes the entries before the snapshot before it; does
     * nothing when another writer appended first (a later writer snapshots instead).
     */
    private void snapshot() {
        AgentCheckpoint record;
        Optional<AgentCheckpoint> head;
        long previous;
        synchronized (lock) {
            refresh();
            head = Optional.ofNullable(folded);
            if (fold.version() - fold.snapshotVersion() < SNAPSHOT_EVERY) {
                return;
            }
            previous = fold.snapshotVersion();
            long version = fold.version() + 1;
            record = AgentCheckpoint.builder()
                    .checkpointId(entryId(version))
                    .agentId(agentId)
                    .version(version)
                    .createdAt(clock.instant())
                    .nodeId("snapshot")
                    .metadata(Map.of(KIND, SNAPSHOT))
                    .state(PAYLOAD, fold.snapshot())
                    .build();
        }
        try {
            storage.saveCheckpointAfter(agentId, head, record);
        } catch (CheckpointConflictException e) {
            return;
        }
        synchronized (lock) {
            if (fold.version() == record.version() - 1) {
                foldIn(record);
            }
        }
        if (previous > 0) {
            try {
                storage.deleteCheckpointsBefore(agentId, previous);
            } catch (RuntimeException e) {
                LOG.debug("Could not delete the entries of '{}' before {}: {}", agentId, previous, e.toString());
            }
        }
    }

    /** Brings the fold up to the log's head. Callers hold the lock. */
    private void refresh() {
        Optional<AgentCheckpoint> head = storage.getLatestCheckpoint(agentId);
        if (head.isEmpty()) {
            fold.clear();
            folded = null;
            return;
        }
        AgentCheckpoint newest = head.get();
        long seen = fold.version();
        if (newest.version() == seen && newest.checkpointId().equals(fold.checkpointId())) {
            return;
        }
        if (seen >= 0 && newest.version() > seen && newest.version() - seen <= MAX_READS_BY_ID) {
            var between = new ArrayList<AgentCheckpoint>();
            for (long version = seen + 1; version < newest.version(); version++) {
                Optional<AgentCheckpoint> entry = storage.getCheckpoint(agentId, entryId(version));
                if (entry.isEmpty() || entry.get().version() != version) {
                    break;
                }
                between.add(entry.get());
            }
            if (between.size() == newest.version() - seen - 1) {
                between.forEach(this::foldIn);
                foldIn(newest);
                return;
            }
        }
        reload();
    }

    /** Folds the log from its newest snapshot (or its start). */
    private void reload() {
        List<AgentCheckpoint> records = storage.getCheckpoints(agentId);
        int from = 0;
        for (int i = records.size() - 1; i >= 0; i--) {
            if (SNAPSHOT.equals(records.get(i).metadata().get(KIND))) {
                from = i;
                break;
            }
        }
        fold.clear();
        folded = null;
        for (AgentCheckpoint record : records.subList(from, records.size())) {
            foldIn(record);
        }
    }

    private void foldIn(AgentCheckpoint record) {
        folded = record;
        if (SNAPSHOT.equals(record.metadata().get(KIND))) {
            try {
                fold.restore(record.state().get(PAYLOAD), record.version(), record.checkpointId());
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw corrupt(record, "not a queue snapshot: " + e.getMessage(), e);
            }
            return;
        }
        fold.apply(parse(record), record.checkpointId());
    }

    private AgentCheckpoint entry(long version, String runId, Change change) {
        var metadata = new HashMap<String, String>();
        metadata.put(KIND, change.kind().name());
        metadata.put(RUN, runId);
        metadata.put(ATTEMPT, Integer.toString(change.attempt()));
        if (change.notBefore() != null) {
            metadata.put(NOT_BEFORE, change.notBefore().toString());
        }
        String detail = change.detail();
        if (detail != null) {
            metadata.put(DETAIL, detail.length() > 2_000 ? detail.substring(0, 2_000) + "…" : detail);
        }
        var builder = AgentCheckpoint.builder()
                .checkpointId(entryId(version))
                .agentId(agentId)
                .version(version)
                .createdAt(clock.instant())
                .nodeId(change.kind().name().toLowerCase(Locale.ROOT))
                .metadata(metadata);
        if (change.payload() != null) {
            builder.state(PAYLOAD, change.payload());
        }
        return builder.build();
    }

    private static String entryId(long version) {
        return "q-" + version;
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
            throw corrupt(record, "not a queue entry: " + e.getMessage(), e);
        }
    }

    private CorruptCheckpointException corrupt(AgentCheckpoint record, String why, Exception cause) {
        return new CorruptCheckpointException(agentId, record.checkpointId(), "run queue entry", why, cause);
    }

    private static String require(Map<String, String> metadata, String key) {
        String value = metadata.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no '" + key + "'");
        }
        return value;
    }
}
