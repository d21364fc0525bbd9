package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A pipeline's queue in the store's native queue ({@link QueueStore}): one item per run, named by the run id, written
 * by compare-and-set on the item's version, so changes to different runs never contend (the log of {@link RunQueue}
 * serializes every change of the queue on one head). Runs that a version before native queues put in the log stay
 * there: they are read from it and changed in it, so a store keeps working across the upgrade, also with older and
 * newer workers at once. Every {@value RunQueue#SNAPSHOT_EVERY} finished runs, the finished ones beyond
 * {@link QueueFold#MAX_FINISHED} are deleted, as the log's fold drops them.
 */
final class RunItems implements RunStore {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_WRITE_ATTEMPTS = 50;
    private static final int MAX_RUNNABLE = 1_000;
    /** How often {@link #depth} counts the runnable items. */
    static final Duration DEPTH_EVERY = Duration.ofSeconds(1);

    private final QueueStore items;
    private final String queue;
    private final RunQueue log;
    private final Clock clock;
    private final AtomicInteger finishes = new AtomicInteger();
    /** The last count of {@link #depth} and when it was made. */
    private volatile Count lastCount = new Count(0, Instant.MIN);

    RunItems(QueueStore items, String pipeline, RunQueue log, Clock clock) {
        this.items = Objects.requireNonNull(items, "items");
        this.queue = log.agentId();
        this.log = log;
        this.clock = clock;
    }

    @Override
    public List<RunQueue.Run> runs() {
        var runs = new ArrayList<>(log.runs());
        for (QueueItem item : items.items(queue)) {
            runs.add(decode(item));
        }
        return List.copyOf(runs);
    }

    @Override
    public List<RunQueue.Run> runnable(Instant now) {
        var runnable = new ArrayList<>(log.runnable(now));
        for (QueueItem item : items.runnable(queue, now, MAX_RUNNABLE)) {
            runnable.add(decode(item));
        }
        return List.copyOf(runnable);
    }

    /** The log's runnable runs as last read, and the runnable items nobody holds, counted at most once a second. */
    @Override
    public int depth(Instant now) {
        Count count = lastCount;
        if (count.at().plus(DEPTH_EVERY).isBefore(now) || count.at().isAfter(now)) {
            count = new Count(items.runnable(queue, now, MAX_RUNNABLE).size(), now);
            lastCount = count;
        }
        return log.depth(now) + count.items();
    }

    private record Count(int items, Instant at) {}

    /** None without a read: a claim reads the oldest run nobody holds. */
    @Override
    public List<RunQueue.Run> lastReadRunnable(Instant now) {
        return List.of();
    }

    /** The log's runnable runs (a store written before native queues), then the oldest item nobody holds. */
    @Override
    public List<RunQueue.Run> claim(Instant now, Instant holdUntil) {
        var claimed = new ArrayList<>(log.runnable(now));
        for (QueueItem item : items.claim(queue, now, holdUntil, 1)) {
            claimed.add(decode(item));
        }
        return List.copyOf(claimed);
    }

    @Override
    public void hold(String runId, Instant until) {
        items.hold(queue, runId, until);
    }

    @Override
    public Optional<RunQueue.Run> run(String runId) {
        Optional<QueueItem> item = items.item(queue, runId);
        return item.isPresent() ? item.map(this::decode) : log.run(runId);
    }

    @Override
    public <R> R update(String runId, Function<Optional<RunQueue.Run>, RunQueue.Decision<R>> decide) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(decide, "decide");
        for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
            Optional<QueueItem> stored = items.item(queue, runId);
            if (stored.isEmpty() && log.run(runId).isPresent()) {
                return log.update(runId, decide); // a run of the log stays in the log
            }
            Optional<RunQueue.Run> current = stored.map(this::decode);
            RunQueue.Decision<R> decision = decide.apply(current);
            if (decision.change().isEmpty()) {
                return decision.result();
            }
            RunQueue.Change change = decision.change().get();
            if (current.isEmpty() && change.kind() != RunQueue.Kind.SUBMITTED) {
                return decision.result(); // as the log's fold ignores a change to a run it does not hold
            }
            long version = stored.map(QueueItem::version).orElse(0L) + 1;
            Instant now = clock.instant();
            RunQueue.Run next = current.map(run -> run.after(change, version))
                    .orElseGet(() -> new RunQueue.Run(
                            runId,
                            change.payload(),
                            RunQueue.Kind.SUBMITTED,
                            0,
                            null,
                            null,
                            null,
                            now.toEpochMilli(),
                            version));
            Instant submittedAt = stored.map(QueueItem::submittedAt).orElse(now);
            if (items.write(queue, encode(next, submittedAt, now))) {
                if (RunQueue.isFinished(next.status()) && finishes.incrementAndGet() % RunQueue.SNAPSHOT_EVERY == 0) {
                    items.deleteFinished(queue, QueueFold.MAX_FINISHED);
                }
                return decision.result();
            }
            // another writer changed the run after we read it: decide again on what it wrote
        }
        throw new CheckpointConflictException(
                queue,
                runId,
                -1,
                "Run '" + runId + "' of queue '" + queue + "' kept changing under " + MAX_WRITE_ATTEMPTS
                        + " writes in a row; nothing was written");
    }

    private QueueItem encode(RunQueue.Run run, Instant submittedAt, Instant now) {
        ObjectNode body = JSON.createObjectNode();
        body.set("input", run.input());
        body.put("status", run.status().name());
        body.put("attempt", run.attempt());
        if (run.notBefore() != null) {
            body.put("notBefore", run.notBefore().toString());
        }
        if (run.answer() != null) {
            body.set("answer", run.answer());
        }
        if (run.detail() != null) {
            body.put("detail", run.detail());
        }
        Instant runnableAt = switch (run.status()) {
            case SUBMITTED, ANSWERED -> now;
            case RETRY -> run.notBefore() == null ? now : run.notBefore();
            default -> null;
        };
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("A run's queue item could not be encoded: " + e.getMessage(), e);
        }
        return new QueueItem(
                run.runId(), run.version(), submittedAt, runnableAt, RunQueue.isFinished(run.status()), bytes);
    }

    private RunQueue.Run decode(QueueItem item) {
        try {
            JsonNode body = JSON.readTree(item.body());
            if (body == null || !body.isObject() || !body.path("status").isTextual()) {
                throw new IllegalArgumentException("not a JSON object with a 'status'");
            }
            JsonNode notBefore = body.get("notBefore");
            JsonNode detail = body.get("detail");
            return new RunQueue.Run(
                    item.id(),
                    body.get("input"),
                    RunQueue.Kind.valueOf(body.get("status").asText()),
                    body.path("attempt").asInt(),
                    notBefore == null ? null : Instant.parse(notBefore.asText()),
                    body.get("answer"),
                    detail == null ? null : detail.asText(),
                    item.submittedAt().toEpochMilli(),
                    item.version());
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            throw new CorruptCheckpointException(
                    queue, item.id(), "run queue item", "not a run queue item: " + e.getMessage(), e);
        }
    }
}
