package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.async.AsyncExecutor;
import dev.agentpersistence.observation.AgentObservations;
import dev.agentpersistence.pipeline.internal.FailedAttempts;
import dev.agentpersistence.pipeline.internal.JournalRecovery;
import dev.agentpersistence.pipeline.internal.NodeOutcome;
import dev.agentpersistence.pipeline.internal.NodeRunner;
import dev.agentpersistence.pipeline.internal.RunCheckpoints;
import dev.agentpersistence.pipeline.internal.RunEvents;
import dev.agentpersistence.pipeline.internal.RunIds;
import dev.agentpersistence.pipeline.internal.RunObservations;
import dev.agentpersistence.pipeline.internal.RunWaits;
import dev.agentpersistence.pipeline.internal.ToolJournal;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sequence of named {@link Node}s run over a state {@code S}, each guarded by pre- and postconditions, backed up
 * before every attempt, rolled back and retried with {@link RetryFeedback} when it fails, and checkpointed when it
 * passes.
 *
 * <p><b>Run ids.</b> Run {@code r} is stored as agent {@link #storedRunId storedRunId(r)} ({@code "@run/" + r}, the
 * namespace {@link AgentNamespace#PIPELINE_RUNS}) and its tool journal as {@code "@journal/" + r}
 * ({@link AgentNamespace#TOOL_JOURNALS}); both are injective and the facade refuses ids of a namespace written without
 * it, so no run id (nor any other agent's id) names another run's checkpoints or journal. A run id has at most
 * {@link #MAX_RUN_ID_LENGTH} characters. A run an earlier version stored under its raw id (journal
 * {@value AgentNamespace#LEGACY_JOURNAL_PREFIX} + run id) is found when nothing is stored in the namespace, and
 * continued where it is; the open attempts of its old journal are undone and closed there.
 *
 * <p><b>Runs and resume.</b> {@link #run(String, Object)} stores the run's checkpoints: first the input (node id
 * {@value #START_NODE_ID}), then the state after each node. Calling {@code run} again with the same run id resumes
 * after the newest checkpoint: finished nodes do not run again, and a node that was interrupted (JVM exit, failure)
 * starts over from the state of the last checkpoint, which is decoded and so put back (files included for a
 * {@link FileWorkspace}); the {@code input} argument is then ignored.
 *
 * <p><b>Completion.</b> When the last node has passed and been checkpointed, the run is marked completed with a
 * tombstone ({@link AgentPersistence#markRunCompleted}) written after the final checkpoint. Running a completed run id
 * again runs nothing and returns the final state from the checkpoint the tombstone points to
 * ({@link PipelineResult#alreadyCompleted()}); decoding it puts the final state back, so a {@link FileWorkspace} holds
 * the final files again. To run again from scratch, use a new run id or delete the run's checkpoints.
 *
 * <p><b>Write-ahead tool journal.</b> Every tool call an action makes through {@link NodeContext#callTool} (or
 * announces with {@link NodeContext#recordToolCall}) is journaled in the run's storage before the tool runs (tool,
 * arguments, idempotency key) and after (result or failure), one save per entry, as the checkpoints of the agent id
 * {@code "@journal/" + runId}. A run resumed after a crash first undoes, through the inverse tools, every journaled
 * call of the attempt the crash cut off (newest first; a call without a recorded result counts as possibly done; a
 * {@link dev.agentpersistence.KeyedTool} inverse receives the call's key), then retries that node with an
 * {@link AttemptAbandonedException} as feedback. Attempt numbers continue after the cut-off attempt, which counts
 * against the node's retries (a node that kills its process every time does not loop forever). A
 * {@link dev.agentpersistence.KeyedTool} declared idempotent gets the same key ({@code runId/node/tool#n}, its n-th
 * call in the attempt) on every attempt; other calls get a fresh random key. Entries of settled attempts are deleted
 * when the next node checkpoint is saved.
 *
 * <p><b>Waiting for input.</b> A node that calls {@link NodeContext#awaitInput} without an answer yet ends the run
 * {@link PipelineResult.Status#WAITING}, with a checkpoint holding the question; {@link #resume(String, JsonNode)}
 * checks an answer against the question's {@link AnswerSchema} and continues the run, in any process;
 * {@link #waitingRuns()} lists the waiting runs.
 *
 * <p><b>Time travel.</b> {@link #rerunFrom(String, String, String)} replays a run from a past node into a new run (a
 * fork of the old one), leaving the old run as it was.
 *
 * <p><b>Failure.</b> A failed run ({@link PipelineResult#failure()}) keeps its checkpoints, so a later {@code run} with
 * the same id retries the failed node. The checkpoint of a node that needed more than one attempt records what the
 * failed attempts broke ({@link #FAILED_ATTEMPTS_METADATA_KEY}).
 *
 * <p><b>One runner per run.</b> Every save of a runner is a compare-and-set right after the checkpoint it last read or
 * saved ({@link AgentPersistence#createCheckpointAfter}, {@link AgentPersistence#markRunCompletedAfter}), never retried
 * on a newer head. A runner that continues a run with checkpoints first saves a claim, a copy of the run's newest
 * checkpoint (metadata {@link #CLAIMED_METADATA_KEY}), before it undoes anything or runs a node. Of two runners that
 * read the same head, one saves and the other gets {@link RunBusyException} and runs nothing more; a runner overtaken
 * while in a node (paused, partitioned) is refused at its next save, so nothing it does after the takeover is stored
 * and its next node never runs. This holds in any number of processes on every provider. For a fleet of workers that
 * take runs from a durable queue, with leases and automatic recovery, see {@link PipelineWorkers}.
 *
 * <p>Immutable and thread-safe; different run ids may run concurrently, and calls on one run id exclude each other as
 * described above.
 *
 * @param <S> the state type
 */
public final class Pipeline<S> {
    /** Longest run id: its tool journal's stored id ({@code "@journal/"} + run id) must be a valid agent id. */
    public static final int MAX_RUN_ID_LENGTH = RunIds.MAX_LENGTH;

    /** The node id of the checkpoint holding a run's input, saved before the first node. */
    public static final String START_NODE_ID = "__start__";

    /**
     * Metadata key of a claim checkpoint, the first save of a runner that continues a run: a copy of the run's newest
     * checkpoint whose value under this key is the id of the checkpoint it copies.
     */
    public static final String CLAIMED_METADATA_KEY = RunCheckpoints.CLAIMED_KEY;

    /**
     * Metadata key of the checkpoint of a node that needed more than one attempt: what its failed attempts broke, as a
     * bounded JSON array (oldest first) of {@code {"attempt": n, "violations": [{"condition": …, "message": …}],
     * "error": …}}; see the module README for the bounds.
     */
    public static final String FAILED_ATTEMPTS_METADATA_KEY = FailedAttempts.KEY;

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    private final String name;
    private final StateCodec<S> codec;
    private final List<Node<S>> nodes;
    private final Map<String, Integer> positions;
    private final AgentPersistence persistence;
    /** The facade writing the runs' namespace. */
    private final AgentPersistence runs;
    /** The facade continuing runs of earlier versions, stored under their raw run ids. */
    private final AgentPersistence legacyRuns;

    private final RetryPolicy retryPolicy;
    private final RetryPolicy checkpointRetry;
    private final List<PipelineListener> listeners;
    private final Clock clock;
    private final Sleeper sleeper;
    private final RunObservations observations;
    private static final KeyValues RUN_ERROR_KEYS = KeyValues.of("status", "failed", "reason", "error");

    private Pipeline(Builder<S> builder, Map<String, Integer> positions, AgentPersistence persistence) {
        this.name = builder.name;
        this.codec = builder.codec;
        this.nodes = List.copyOf(builder.nodes);
        this.positions = Map.copyOf(positions);
        this.persistence = persistence;
        this.runs = persistence.inNamespace(AgentNamespace.PIPELINE_RUNS);
        this.legacyRuns = persistence.withoutNamespace();
        this.retryPolicy = builder.retryPolicy;
        this.checkpointRetry = builder.checkpointRetry;
        this.listeners = List.copyOf(builder.listeners);
        this.clock = builder.clock;
        this.sleeper = builder.sleeper;
        this.observations = builder.pipelineObservations();
    }

    /**
     * Starts a pipeline called {@code name} over states {@code codec} can encode.
     *
     * @param name identifies the pipeline in checkpoints, events and metrics
     * @param codec turns the state into JSON for checkpoints and backups
     */
    public static <S> Builder<S> builder(String name, StateCodec<S> codec) {
        return new Builder<>(name, codec);
    }

    public String name() {
        return name;
    }

    /** The nodes in the order they run. */
    public List<Node<S>> nodes() {
        return nodes;
    }

    public StateCodec<S> codec() {
        return codec;
    }

    /** The facade checkpoints are saved through. */
    public AgentPersistence persistence() {
        return persistence;
    }

    /**
     * Runs (or resumes, or reports the completed) run {@code runId}; see the class documentation. Node failures are
     * returned in the result, not thrown.
     *
     * @param runId the run's id ({@link Identifiers} rules, at most {@link #MAX_RUN_ID_LENGTH} characters), stored as
     *     agent {@link #storedRunId}
     * @param input the state the first node receives in a fresh run
     * @throws dev.agentpersistence.InvalidIdentifierException when {@code runId} is not a valid run id
     * @throws RunBusyException when another runner saved a checkpoint of the run after the one this call read (before
     *     any node ran, or at this runner's next save, which then runs nothing more)
     * @throws dev.agentpersistence.StorageUnavailableException when the run's checkpoints cannot be read even after the
     *     {@link Builder#checkpointRetry checkpoint retries}
     * @throws IllegalStateException when the run's checkpoints belong to another pipeline, name a node this pipeline
     *     does not have, or hold a state the codec cannot decode
     * @throws IllegalArgumentException when the codec cannot encode {@code input} (fresh runs)
     */
    public PipelineResult<S> run(String runId, S input) {
        RunIds.requireValid(runId, "runId");
        Objects.requireNonNull(input, "input");
        return execute(runId, input);
    }

    /**
     * The agent id run {@code runId} is stored under: {@code AgentNamespace.PIPELINE_RUNS.agentId(runId)}. (A run
     * written before namespaces keeps its raw run id and is continued there.) Its tool journal is
     * {@code AgentNamespace.TOOL_JOURNALS.agentId(runId)}.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when {@code runId} is not a valid run id
     */
    public static String storedRunId(String runId) {
        return RunIds.storedId(runId);
    }

    /**
     * {@link #run} without blocking the caller: the run goes on a thread of {@code executor} and the future completes
     * with its result (node failures are results, as with {@code run}; what {@code run} throws fails the future with
     * that exception, {@link RunBusyException} included). Cancelling the future interrupts the run: the node running is
     * rolled back and the run ends {@link PipelineFailure.Reason#INTERRUPTED}, its checkpoints kept for a later resume.
     * Back-pressure as documented on {@link AsyncExecutor}: a run refused for capacity fails at once with
     * {@link dev.agentpersistence.async.AsyncRejectedException}.
     */
    public CompletableFuture<PipelineResult<S>> runAsync(String runId, S input, AsyncExecutor executor) {
        RunIds.requireValid(runId, "runId");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(executor, "executor");
        return executor.submit("pipeline " + name + " run(" + runId + ")", () -> run(runId, input));
    }

    /** {@link #resume} without blocking the caller; see {@link #runAsync}. */
    public CompletableFuture<PipelineResult<S>> resumeAsync(String runId, JsonNode answer, AsyncExecutor executor) {
        RunIds.requireValid(runId, "runId");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(executor, "executor");
        return executor.submit("pipeline " + name + " resume(" + runId + ")", () -> resume(runId, answer));
    }

    /**
     * Answers the question run {@code runId} waits on and continues it: checks the answer against the question's
     * {@link AnswerSchema}, saves it in a checkpoint right after the waiting one (so a crash from here on keeps it),
     * then runs as {@link #run} does; the node that asked runs again from its start and {@link NodeContext#awaitInput}
     * returns the answer. Any process with this pipeline and the run's storage can resume it. The answer applies only
     * if the waiting checkpoint is still the run's newest when it is saved (compare-and-set): of two concurrent
     * answers, one continues the run and the other gets {@link RunBusyException} and changes nothing.
     *
     * @param answer the answer (JSON; {@code NullNode} for JSON null)
     * @throws RunNotWaitingException when the run does not exist, completed, or is not waiting
     * @throws InvalidAnswerException when the schema refuses the answer; the run keeps waiting
     * @throws RunBusyException when another answer or runner saved a checkpoint of the run first
     */
    public PipelineResult<S> resume(String runId, JsonNode answer) {
        RunIds.requireValid(runId, "runId");
        Objects.requireNonNull(answer, "answer");
        var events = new RunEvents(name, runId, clock, listeners, observations);
        return observedRun(events, () -> resume(events, runId, answer));
    }

    /** Runs {@code run} inside the run's observation, keyed by the result's status and failure reason. */
    private PipelineResult<S> observedRun(RunEvents events, Supplier<PipelineResult<S>> run) {
        return events.observe(
                PipelineMetrics.RUN_DURATION, "run", KeyValues.empty(), Pipeline::runKeys, RUN_ERROR_KEYS, run::get);
    }

    private static KeyValues runKeys(PipelineResult<?> result) {
        return KeyValues.of(
                "status",
                result.status().name().toLowerCase(Locale.ROOT),
                "reason",
                result.failure()
                        .map(failure -> failure.reason().name().toLowerCase(Locale.ROOT))
                        .orElse("none"));
    }

    private PipelineResult<S> resume(RunEvents events, String runId, JsonNode answer) {
        Instant started = events.now();
        Located run = locate(runId, events);
        AgentCheckpoint latest =
                run.latest().orElseThrow(() -> new RunNotWaitingException(name, runId, "it has no checkpoints"));
        if (latest.isTombstone()) {
            throw new RunNotWaitingException(name, runId, "it has completed");
        }
        requireOwn(latest);
        InputRequest request = RunWaits.waiting(latest, runId)
                .orElseThrow(() -> new RunNotWaitingException(
                        name, runId, "its newest checkpoint (after node '" + latest.nodeId() + "') holds no question"));
        List<String> problems = request.schema().validate(answer);
        if (!problems.isEmpty()) {
            throw new InvalidAnswerException(request, problems);
        }
        var answers = RunWaits.answers(latest);
        answers.put(request.requestId(), answer);
        var metadata = new HashMap<String, String>();
        for (String key : List.of(ToolJournal.MARK_KEY, ToolJournal.JOURNAL_KEY)) {
            Optional.ofNullable(latest.metadata().get(key)).ifPresent(value -> metadata.put(key, value));
        }
        metadata.put(RunWaits.ANSWERS_KEY, RunWaits.encode(answers));
        AgentCheckpoint answered = load(() -> run.checkpoints()
                .saveWith(
                        latest.nodeId(),
                        latest.state().get(RunCheckpoints.STATE_KEY),
                        latest.messageHistory(),
                        metadata));
        events.publish(new PipelineEvent.InputReceived(
                name, runId, events.now(), request, Duration.between(request.since(), events.now())));
        return proceed(run, answered, events, started, false);
    }

    /**
     * Replays run {@code runId} from node {@code nodeId} into a new run {@code newRunId}: the new run is a fork
     * ({@link AgentPersistence#fork}) of the old one at the checkpoint saved before {@code nodeId} ran (the input for
     * the first node), so {@code nodeId} and every node after it run again, while the old run's checkpoints stay as
     * they are. {@code persistence().lineage(Pipeline.storedRunId(newRunId))} names the old run's stored id. A
     * {@link FileWorkspace} state is decoded into its directory as on any resume, so its files become those of the fork
     * point. The replay claims the new run as {@link #run} does.
     *
     * @throws IllegalArgumentException when the pipeline has no node {@code nodeId}
     * @throws IllegalStateException when the old run never got to {@code nodeId}, or belongs to another pipeline
     * @throws dev.agentpersistence.AgentAlreadyExistsException when {@code newRunId} has checkpoints
     * @throws RunBusyException when another call forked into or claimed {@code newRunId} at the same time
     */
    public PipelineResult<S> rerunFrom(String runId, String nodeId, String newRunId) {
        RunIds.requireValid(runId, "runId");
        Objects.requireNonNull(nodeId, "nodeId");
        RunIds.requireValid(newRunId, "newRunId");
        Integer position = positions.get(nodeId);
        if (position == null) {
            throw new IllegalArgumentException(
                    "pipeline '" + name + "' has no node '" + nodeId + "'; nodes: " + positions.keySet());
        }
        String before = position == 0 ? START_NODE_ID : nodes.get(position - 1).name();
        String oldId = RunIds.storedId(runId);
        List<AgentCheckpoint> old = runs.checkpoints(oldId);
        if (old.isEmpty() && RunIds.legacyId(runId).isPresent()) {
            oldId = RunIds.legacyId(runId).get();
            old = runs.checkpoints(oldId);
        }
        AgentCheckpoint forkPoint = old.stream()
                .filter(cp -> !cp.isTombstone() && before.equals(cp.nodeId()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("run '" + runId + "' of pipeline '" + name
                        + "' has no checkpoint after '" + before + "', so it never got to node '" + nodeId + "'"));
        requireOwn(forkPoint);
        try {
            runs.fork(oldId, forkPoint.checkpointId(), RunIds.storedId(newRunId));
        } catch (CheckpointConflictException e) {
            throw new RunBusyException(name, newRunId, null, e);
        }
        return execute(newRunId, null);
    }

    /**
     * The runs of this pipeline waiting for input, with their questions; see {@link #scanWaitingRuns()}, whose
     * {@link WaitingRuns#waiting()} this is. A run whose newest checkpoint cannot be read is skipped (and logged).
     */
    public List<InputRequest> waitingRuns() {
        return scanWaitingRuns().waiting();
    }

    /**
     * The runs of this pipeline waiting for input, and the runs skipped because their newest checkpoint or its wait
     * cannot be read (each logged as a warning), so one damaged run does not hide the others. Looks at the newest
     * checkpoint of every agent in the storage that may be a run ({@code listAgents()}: the runs' namespace, and ids
     * without namespace, where runs of earlier versions live), so it reads as many checkpoints as the store holds such
     * agents.
     */
    public WaitingRuns scanWaitingRuns() {
        var storage = persistence.storage();
        var waiting = new ArrayList<InputRequest>();
        var unreadable = new ArrayList<WaitingRuns.Unreadable>();
        for (String agentId : storage.listAgents()) {
            Optional<String> runId = RunIds.runIdOf(agentId);
            if (runId.isEmpty()) {
                continue;
            }
            try {
                storage.getLatestCheckpoint(agentId)
                        .filter(cp ->
                                !cp.isTombstone() && name.equals(cp.metadata().get(RunCheckpoints.PIPELINE_KEY)))
                        .flatMap(cp -> RunWaits.waiting(cp, runId.get()))
                        .ifPresent(waiting::add);
            } catch (CorruptCheckpointException e) {
                LOG.warn(
                        "Run '{}' of pipeline '{}' is skipped in the list of waiting runs: {}",
                        runId.get(),
                        name,
                        e.getMessage());
                unreadable.add(new WaitingRuns.Unreadable(runId.get(), agentId, e));
            }
        }
        return new WaitingRuns(waiting, unreadable);
    }

    /** Runs, resumes or reports run {@code runId}; {@code input} may be null when the run has checkpoints. */
    private PipelineResult<S> execute(String runId, S input) {
        var events = new RunEvents(name, runId, clock, listeners, observations);
        return observedRun(events, () -> execute(events, runId, input));
    }

    private PipelineResult<S> execute(RunEvents events, String runId, S input) {
        Instant started = events.now();
        Located run = locate(runId, events);
        var checkpoints = run.checkpoints();

        Optional<AgentCheckpoint> latest = run.latest();
        if (latest.isPresent() && latest.get().isTombstone()) {
            AgentCheckpoint last = load(() -> checkpoints.completedCheckpoint(latest.get()))
                    .orElseThrow(() -> new IllegalStateException(
                            "run '" + runId + "' is marked completed but the checkpoint before its " + "tombstone '"
                                    + latest.get().checkpointId() + "' is missing"));
            events.publish(new PipelineEvent.RunStarted(name, runId, events.now(), last.nodeId()));
            return finish(
                    events,
                    started,
                    new PipelineResult<>(
                            name, runId, decode(last), last.messageHistory(), List.of(), last.nodeId(), null, true));
        }

        Optional<InputRequest> waiting = latest.flatMap(cp -> RunWaits.waiting(cp, runId));
        if (waiting.isPresent()) {
            requireOwn(latest.get());
            events.publish(new PipelineEvent.RunStarted(
                    name, runId, events.now(), latest.get().nodeId()));
            return finish(
                    events,
                    started,
                    new PipelineResult<>(
                            name,
                            runId,
                            decode(latest.get()),
                            latest.get().messageHistory(),
                            List.of(),
                            latest.get().nodeId(),
                            null,
                            false,
                            waiting.get()));
        }

        if (latest.isPresent()) {
            positionAfter(latest.get());
            AgentCheckpoint claimed;
            try {
                claimed = checkpoints.claim(latest.get());
            } catch (InterruptedException | RuntimeException e) {
                rethrowIfBusy(e);
                return saveFailed(
                        events, started, runId, null, List.of(), latest.get().nodeId(), e);
            }
            return proceed(run, claimed, events, started, false);
        }
        S state = Objects.requireNonNull(input, "input");
        JsonNode encodedInput = codec.encode(input);
        events.publish(new PipelineEvent.RunStarted(name, runId, events.now(), null));
        AgentCheckpoint first;
        try {
            first = checkpoints.save(START_NODE_ID, encodedInput, List.of(), 0);
        } catch (InterruptedException | RuntimeException e) {
            rethrowIfBusy(e);
            return saveFailed(events, started, runId, state, List.of(), START_NODE_ID, e);
        }
        return proceed(run, first, events, started, true);
    }

    /**
     * Goes on from {@code head}, the checkpoint this runner saved last (its claim): undoes the attempts a crash cut
     * off, then runs the nodes after {@code head}'s node.
     */
    private PipelineResult<S> proceed(
            Located run, AgentCheckpoint head, RunEvents events, Instant started, boolean fresh) {
        String runId = events.runId();
        int next = positionAfter(head);
        S state = decode(head);
        List<Message> history = head.messageHistory();
        String resumedAfter = fresh ? null : head.nodeId();
        if (!fresh) {
            events.publish(new PipelineEvent.RunStarted(name, runId, events.now(), resumedAfter));
        }
        var checkpoints = run.checkpoints();
        var journal = new ToolJournal(persistence, runId);
        var sources = new ArrayList<JournalRecovery.Source>();
        if (run.legacy() && !journal.journalId().equals(head.metadata().get(ToolJournal.JOURNAL_KEY))) {
            var legacyJournal = ToolJournal.legacy(persistence, runId);
            sources.add(new JournalRecovery.Source(legacyJournal, legacyJournal.markIn(head)));
        }
        sources.add(new JournalRecovery.Source(journal, journal.markIn(head)));
        Map<String, JsonNode> answers = RunWaits.answers(head);
        String lastNode = head.nodeId();
        var recovered = load(() -> JournalRecovery.recover(sources, persistence.rollbackTools(), events))
                .orElse(null);
        if (!fresh) {
            try {
                load(() -> {
                    journal.claimed();
                    return null;
                });
            } catch (CheckpointConflictException e) {
                throw new RunBusyException(name, runId, null, e);
            }
        }
        var runner = new NodeRunner<>(
                codec, retryPolicy, persistence.rollbackTools(), sleeper, events, checkpoints, journal);
        var executed = new ArrayList<String>();
        for (Node<S> node : nodes.subList(next, nodes.size())) {
            NodeOutcome<S> outcome = runner.run(node, state, history, recovered, answers);
            recovered = null;
            state = outcome.state();
            history = outcome.history();
            if (outcome.waiting() != null) {
                return waitAt(
                        events, checkpoints, journal, started, lastNode, outcome, answers, executed, resumedAfter);
            }
            answers = Map.of();
            if (!outcome.passed()) {
                rethrowIfBusy(outcome.failure().exception());
                return finish(
                        events,
                        started,
                        new PipelineResult<>(
                                name, runId, state, history, executed, resumedAfter, outcome.failure(), false));
            }
            executed.add(node.name());
            lastNode = node.name();
        }
        try {
            checkpoints.markCompleted();
        } catch (InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            rethrowIfBusy(e);
            LOG.warn(
                    "Run '{}' of pipeline '{}' completed and its final state is checkpointed, but the completion "
                            + "marker could not be saved; the next run() of this id will write it: {}",
                    runId,
                    name,
                    e.toString());
        }
        boolean alreadyCompleted = !fresh && next == nodes.size();
        return finish(
                events,
                started,
                new PipelineResult<>(name, runId, state, history, executed, resumedAfter, null, alreadyCompleted));
    }

    /** The result of a run whose claim (its first save) failed for another reason than another runner. */
    private PipelineResult<S> saveFailed(
            RunEvents events, Instant started, String runId, S state, List<Message> history, String node, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        var reason = e instanceof InterruptedException
                ? PipelineFailure.Reason.INTERRUPTED
                : PipelineFailure.Reason.CHECKPOINT_FAILED;
        return finish(
                events,
                started,
                new PipelineResult<>(
                        name,
                        runId,
                        state,
                        history,
                        List.of(),
                        null,
                        new PipelineFailure(reason, node, 0, List.of(), e),
                        false));
    }

    /** Throws {@code e} when it says another runner took the run: this runner stops. */
    private static void rethrowIfBusy(Throwable e) {
        if (e instanceof RunBusyException busy) {
            throw busy;
        }
    }

    /**
     * Where run {@code runId} is stored, and its newest checkpoint: its id in the runs' namespace, or, when nothing is
     * stored there, the raw id of an earlier version when that holds checkpoints.
     */
    private Located locate(String runId, RunEvents events) {
        String runner = UUID.randomUUID().toString();
        var current = new RunCheckpoints(runs, RunIds.storedId(runId), runner, checkpointRetry, sleeper, events);
        Optional<AgentCheckpoint> latest = load(current::latest);
        if (latest.isEmpty() && RunIds.legacyId(runId).isPresent()) {
            var legacy = new RunCheckpoints(
                    legacyRuns, RunIds.legacyId(runId).get(), runner, checkpointRetry, sleeper, events);
            if (load(legacy::probe).isPresent()) {
                return new Located(legacy, load(legacy::latest), true);
            }
        }
        return new Located(current, latest, false);
    }

    /**
     * One call's view of a run: its checkpoints, its newest checkpoint when the call began, and whether it is a run of
     * an earlier version (stored under the raw run id).
     */
    private record Located(RunCheckpoints checkpoints, Optional<AgentCheckpoint> latest, boolean legacy) {}

    /** Saves the checkpoint of a run that waits for input and reports it waiting. */
    private PipelineResult<S> waitAt(
            RunEvents events,
            RunCheckpoints checkpoints,
            ToolJournal journal,
            Instant started,
            String lastNode,
            NodeOutcome<S> outcome,
            Map<String, JsonNode> answers,
            List<String> executed,
            String resumedAfter) {
        var metadata = new HashMap<>(journal.markMetadata(journal.lastVersion()));
        metadata.put(RunWaits.WAITING_KEY, RunWaits.encode(outcome.waiting()));
        if (!answers.isEmpty()) {
            metadata.put(RunWaits.ANSWERS_KEY, RunWaits.encode(answers));
        }
        try {
            checkpoints.saveWith(lastNode, codec.encode(outcome.state()), outcome.history(), metadata);
        } catch (InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            var reason = e instanceof InterruptedException
                    ? PipelineFailure.Reason.INTERRUPTED
                    : PipelineFailure.Reason.CHECKPOINT_FAILED;
            return finish(
                    events,
                    started,
                    new PipelineResult<>(
                            name,
                            events.runId(),
                            outcome.state(),
                            outcome.history(),
                            executed,
                            resumedAfter,
                            new PipelineFailure(reason, outcome.waiting().node(), 0, List.of(), e),
                            false));
        }
        return finish(
                events,
                started,
                new PipelineResult<>(
                        name,
                        events.runId(),
                        outcome.state(),
                        outcome.history(),
                        executed,
                        resumedAfter,
                        null,
                        false,
                        outcome.waiting()));
    }

    private PipelineResult<S> finish(RunEvents events, Instant started, PipelineResult<S> result) {
        events.publish(new PipelineEvent.RunFinished(
                name,
                result.runId(),
                events.now(),
                result.status(),
                result.failure().orElse(null),
                events.since(started),
                result.alreadyCompleted()));
        return result;
    }

    private int positionAfter(AgentCheckpoint checkpoint) {
        requireOwn(checkpoint);
        if (START_NODE_ID.equals(checkpoint.nodeId())) {
            return 0;
        }
        Integer position = positions.get(checkpoint.nodeId());
        if (position == null) {
            throw new IllegalStateException(
                    "run '" + runIdOf(checkpoint) + "' was checkpointed after node '" + checkpoint.nodeId()
                            + "', which pipeline '" + name + "' does not have; nodes: " + positions.keySet());
        }
        return position + 1;
    }

    private S decode(AgentCheckpoint checkpoint) {
        requireOwn(checkpoint);
        JsonNode json = checkpoint.state().get(RunCheckpoints.STATE_KEY);
        try {
            return Objects.requireNonNull(codec.decode(json), "codec decoded null");
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "checkpoint '" + checkpoint.checkpointId() + "' of run '" + runIdOf(checkpoint) + "' holds a state "
                            + codec + " cannot decode: " + e.getMessage(),
                    e);
        }
    }

    private void requireOwn(AgentCheckpoint checkpoint) {
        JsonNode owner = checkpoint.state().get(RunCheckpoints.PIPELINE_KEY);
        if (owner == null || !checkpoint.state().containsKey(RunCheckpoints.STATE_KEY)) {
            throw new IllegalStateException("checkpoint '" + checkpoint.checkpointId() + "' of run '"
                    + runIdOf(checkpoint) + "' was not written by a pipeline");
        }
        if (!name.equals(owner.asText())) {
            throw new IllegalStateException("run '" + runIdOf(checkpoint) + "' belongs to pipeline '" + owner.asText()
                    + "', not '" + name + "'");
        }
    }

    /** The run id a checkpoint of a run belongs to, for messages. */
    private static String runIdOf(AgentCheckpoint checkpoint) {
        return RunIds.runIdOf(checkpoint.agentId()).orElse(checkpoint.agentId());
    }

    private static <T> T load(Loader<T> loader) {
        try {
            return loader.load();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.agentpersistence.StorageUnavailableException(
                    "interrupted while waiting to retry loading a checkpoint", e);
        }
    }

    @FunctionalInterface
    private interface Loader<T> {
        T load() throws InterruptedException;
    }

    @Override
    public String toString() {
        return "Pipeline[" + name + ", nodes=" + positions.size() + "]";
    }

    /**
     * Configures a {@link Pipeline}. Required: at least one node, and storage through {@link #storage} or
     * {@link #persistence}.
     */
    public static final class Builder<S> {
        private final String name;
        private final StateCodec<S> codec;
        private final List<Node<S>> nodes = new ArrayList<>();
        private final List<PipelineListener> listeners = new ArrayList<>();
        private PersistenceStorageProvider<?> storage;
        private RollbackToolRegistry rollbackTools;
        private AgentPersistence persistence;
        private RetryPolicy retryPolicy = RetryPolicy.ofDefaults();
        private RetryPolicy checkpointRetry = DEFAULT_CHECKPOINT_RETRY;
        private Clock clock = Clock.systemUTC();
        private Sleeper sleeper = Sleeper.threadSleep();
        private ObservationRegistry observations = ObservationRegistry.NOOP;
        private PipelineListener metricsListener;
        private MeterRegistry meterRegistry;
        private boolean observationsGiven;

        /** 3 retries, waiting 100 ms, 200 ms, 400 ms (at most 2 s). */
        private static final RetryPolicy DEFAULT_CHECKPOINT_RETRY = RetryPolicy.custom()
                .maxRetries(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2)))
                .build();

        private Builder(String name, StateCodec<S> codec) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("pipeline name must not be blank");
            }
            this.name = name;
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /** Appends a node; nodes run in the order they are added. */
        public Builder<S> node(Node<S> node) {
            nodes.add(Objects.requireNonNull(node, "node"));
            return this;
        }

        /** Appends nodes. */
        public Builder<S> nodes(List<Node<S>> nodes) {
            Objects.requireNonNull(nodes, "nodes").forEach(this::node);
            return this;
        }

        /**
         * Where checkpoints go; the pipeline builds an {@link AgentPersistence} over it with this builder's clock and
         * {@link #rollbackTools}. Use {@link #persistence} instead to share one.
         */
        public Builder<S> storage(PersistenceStorageProvider<?> storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
            return this;
        }

        /** The inverse tools undoing a failed attempt's tool calls (with {@link #storage}); default none. */
        public Builder<S> rollbackTools(RollbackToolRegistry rollbackTools) {
            this.rollbackTools = Objects.requireNonNull(rollbackTools, "rollbackTools");
            return this;
        }

        /** The facade to checkpoint through; its rollback tools undo failed attempts' tool calls. */
        public Builder<S> persistence(AgentPersistence persistence) {
            this.persistence = Objects.requireNonNull(persistence, "persistence");
            return this;
        }

        /** Retries per node unless the node has its own; default {@link RetryPolicy#ofDefaults()} (3, no wait). */
        public Builder<S> retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /**
         * Retries of a checkpoint save or load that hits {@link dev.agentpersistence.StorageUnavailableException};
         * default 3 retries waiting 100 ms, 200 ms, 400 ms.
         */
        public Builder<S> checkpointRetry(RetryPolicy checkpointRetry) {
            this.checkpointRetry = Objects.requireNonNull(checkpointRetry, "checkpointRetry");
            return this;
        }

        /** Adds a listener for the pipeline's events, e.g. {@link PipelineMetrics}. */
        public Builder<S> listener(PipelineListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Records the pipeline's metrics into {@code registry}: the counts of its events (a {@link PipelineMetrics}
         * listener) and, unless an {@link #observationRegistry} is given, the timers of its observed operations (runs,
         * node attempts, checkpoint saves and loads) through a registry recording into it. Calling it again replaces
         * the registry.
         */
        public Builder<S> meterRegistry(MeterRegistry registry) {
            Objects.requireNonNull(registry, "registry");
            listeners.remove(metricsListener);
            metricsListener = PipelineMetrics.bindTo(registry);
            listeners.add(metricsListener);
            meterRegistry = registry;
            return this;
        }

        /**
         * Where the pipeline observes its operations: one observation per run, node attempt, checkpoint save and
         * checkpoint load, named after its timer ({@link PipelineMetrics}), so its meter handler records the timers and
         * a tracing handler makes them spans. With {@link #storage}, the facade is observed into it too, so checkpoint
         * creation and rollbacks are observed (the storage observes its own calls when it was built with the registry).
         * A facade given through {@link #persistence} keeps its own settings.
         */
        public Builder<S> observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            this.observationsGiven = true;
            return this;
        }

        /**
         * The clock for event times, durations and (with {@link #storage}) checkpoint times; default UTC system clock.
         */
        public Builder<S> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How retry waits are made; default {@link Sleeper#threadSleep()}. */
        public Builder<S> sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * Where the pipeline observes its runs, node attempts and checkpoint saves and loads: the observation registry
         * when one was given, else one recording into the meter registry, else none.
         */
        private RunObservations pipelineObservations() {
            if (observationsGiven) {
                return new RunObservations(observations);
            }
            return meterRegistry == null
                    ? RunObservations.NONE
                    : new RunObservations(AgentObservations.registryFor(meterRegistry));
        }

        /**
         * @throws IllegalStateException when there are no nodes, two nodes share a name, or the storage is missing or
         *     given twice
         */
        public Pipeline<S> build() {
            if (nodes.isEmpty()) {
                throw new IllegalStateException("pipeline '" + name + "' has no nodes");
            }
            var positions = new HashMap<String, Integer>();
            for (int i = 0; i < nodes.size(); i++) {
                Integer earlier = positions.putIfAbsent(nodes.get(i).name(), i);
                if (earlier != null) {
                    throw new IllegalStateException("pipeline '" + name + "' has two nodes named '"
                            + nodes.get(i).name() + "' (positions " + (earlier + 1) + " and " + (i + 1)
                            + "); node names must be unique");
                }
            }
            AgentPersistence facade;
            if (persistence != null) {
                if (storage != null || rollbackTools != null) {
                    throw new IllegalStateException("pipeline '" + name + "': set either persistence(...) or "
                            + "storage(...)/rollbackTools(...), not both");
                }
                facade = persistence;
            } else if (storage != null) {
                var facadeBuilder = AgentPersistence.builder()
                        .storage(storage)
                        .rollbackTools(rollbackTools == null ? RollbackToolRegistry.EMPTY : rollbackTools)
                        .clock(clock);
                facade = facadeBuilder.observationRegistry(observations).build();
            } else {
                throw new IllegalStateException("pipeline '" + name + "' needs storage for its checkpoints: call "
                        + "storage(...) or persistence(...)");
            }
            return new Pipeline<>(this, positions, facade);
        }
    }
}
