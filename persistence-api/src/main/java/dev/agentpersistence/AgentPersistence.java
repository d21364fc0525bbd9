package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.internal.Forks;
import dev.agentpersistence.internal.HeadCondition;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservationContext;
import dev.agentpersistence.observation.internal.FacadeObservations;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints and rollbacks for agents: what an agent framework (or plain code through {@link SimpleAgentContext})
 * calls to save an agent's state and to put it back.
 *
 * <p><b>Checkpoints.</b> {@link #createCheckpoint} snapshots an {@link AgentContext} and saves it with a fresh unique
 * id, the next version of the agent (latest + 1, or 0 for the first) and the previous latest checkpoint as parent. When
 * another writer takes that version first ({@link CheckpointConflictException}), it reloads the latest and tries again,
 * at most {@link Builder#maxConflictRetries(int)} times. {@link #createCheckpointAfter} and
 * {@link #markRunCompletedAfter} instead save only right after the head the caller read (compare-and-set): a writer
 * that another writer overtook is refused with {@link CheckpointConflictException} and stores nothing.
 *
 * <p><b>Automatic persistence.</b> With {@link Builder#automaticPersistence(boolean)} on, the framework integration
 * calls {@link #onNodeCompleted} after every node (which then creates a checkpoint) and {@link #markRunCompleted} when
 * a run completes (which writes a tombstone, so {@link #rollbackToLatestCheckpoint} of the next run starts fresh). With
 * it off, {@link #onNodeCompleted} does nothing and the application checkpoints where it chooses.
 *
 * <p><b>Rollback.</b> {@link #rollbackToCheckpoint} and {@link #rollbackToLatestCheckpoint} first undo the tool calls
 * made after the checkpoint ({@link ToolCallHistory#callsAfter} over the context's current history;
 * {@link RollbackToolRegistry#undo} calls the inverses newest first and keeps going past failures), then restore the
 * checkpoint's {@link ExecutionPoint} into the context. The {@link RollbackReport} tells what was restored, undone,
 * failed, and had no inverse. Only tool calls recorded in the history as {@link Message.Role#TOOL_CALL} messages are
 * undone (see {@link RollbackToolRegistry}); {@link RollbackReport#noCallsFound()} tells when there were none.
 *
 * <p><b>Observations</b>, when built with an {@link ObservationRegistry} (meters through
 * {@link dev.agentpersistence.observation.AgentMeterHandler}, spans where the application has tracing):
 * {@value StorageMetricNames#CHECKPOINT_CREATE} (keys {@code kind}: {@code checkpoint}|{@code tombstone},
 * {@code outcome}: {@code success}|{@code conflict}|{@code error}) with the count
 * {@value StorageMetricNames#CONFLICT_RETRIES} (every save tried again after another writer took the version, including
 * the first reload after another writer saved since this facade's last save, which does not count against
 * {@link Builder#maxConflictRetries(int)}), and {@value StorageMetricNames#ROLLBACK} (keys {@code target}:
 * {@code checkpoint}|{@code latest}, {@code outcome}: {@code restored}|{@code no_checkpoint}|{@code run_completed}|
 * {@code error}) with the count {@value StorageMetricNames#INVERSE_CALLS} (key {@code outcome}: {@code success}|
 * {@code failure}). The storage observes its own operations when it was built with the registry
 * ({@code observationRegistry} on its builder; discovery passes it on).
 *
 * <p><b>Namespaces.</b> A facade built without an {@link AgentNamespace} writes only agent ids that are not reserved
 * for one ({@link AgentNamespace#requireUnreserved}), so plain code cannot write onto a pipeline run, a journal or a
 * chat memory; a facade {@link #inNamespace in a namespace} writes only that namespace's stored ids. Reads take any
 * valid id.
 *
 * <p>Immutable and thread-safe. It does not own the storage: close the provider yourself.
 */
public final class AgentPersistence {
    /** How often a save is retried after a version conflict unless configured otherwise. */
    public static final int DEFAULT_MAX_CONFLICT_RETRIES = 5;

    private static final int MAX_CACHED_HEADS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(AgentPersistence.class);

    private final PersistenceStorageProvider<?> storage;
    private final RollbackToolRegistry rollbackTools;
    private final boolean automaticPersistence;
    private final Clock clock;
    private final int maxConflictRetries;
    private final Supplier<String> checkpointIds;
    private final FacadeObservations observations;
    private final ObservationRegistry observationRegistry;
    private final AgentNamespace namespace;
    /**
     * The newest checkpoint this facade saved per agent, so the next save needs no read: the version after it is tried
     * first, and only a conflict (another writer) reloads the latest.
     */
    private final Map<String, Head> heads = new ConcurrentHashMap<>();

    private AgentPersistence(Builder builder) {
        this.storage = builder.storage;
        this.rollbackTools = builder.rollbackTools;
        this.automaticPersistence = builder.automaticPersistence;
        this.clock = builder.clock;
        this.maxConflictRetries = builder.maxConflictRetries;
        this.checkpointIds = builder.checkpointIds;
        this.observations = new FacadeObservations(builder.observations);
        this.observationRegistry = builder.observations;
        this.namespace = builder.namespace;
    }

    /** A builder; {@link Builder#storage} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Saves the context's current history and state as a new checkpoint.
     *
     * @param context the agent to snapshot
     * @param nodeId the node that was running, or {@code null}
     * @param lastInput that node's input, or {@code null}
     * @param lastInputType a type name for {@code lastInput}, or {@code null}
     * @return the saved checkpoint
     * @throws CheckpointConflictException when other writers took the next version on every attempt
     */
    public AgentCheckpoint createCheckpoint(
            AgentContext context, String nodeId, JsonNode lastInput, String lastInputType) {
        return createCheckpoint(context, nodeId, lastInput, lastInputType, Map.of());
    }

    /** As {@link #createCheckpoint(AgentContext, String, JsonNode, String)}, with filterable metadata. */
    public AgentCheckpoint createCheckpoint(
            AgentContext context,
            String nodeId,
            JsonNode lastInput,
            String lastInputType,
            Map<String, String> metadata) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(metadata, "metadata");
        String agentId = writable(context.agentId(), "agentId");
        var history = context.messageHistory();
        var state = context.state();
        String checkpointId = Identifiers.requireValid(checkpointIds.get(), "generated checkpointId");
        return saveNext(
                agentId,
                "checkpoint",
                latest -> checkpointAfter(
                        latest, checkpointId, agentId, nodeId, lastInput, lastInputType, history, state, metadata));
    }

    /** A new checkpoint of {@code agentId} right after {@code parent}: its next version, with it as parent. */
    private AgentCheckpoint checkpointAfter(
            Optional<Head> parent,
            String checkpointId,
            String agentId,
            String nodeId,
            JsonNode lastInput,
            String lastInputType,
            List<Message> history,
            Map<String, JsonNode> state,
            Map<String, String> metadata) {
        return AgentCheckpoint.builder()
                .checkpointId(checkpointId)
                .agentId(agentId)
                .version(parent.map(head -> head.version() + 1).orElse(0L))
                .createdAt(clock.instant())
                .nodeId(nodeId)
                .lastInput(lastInput)
                .lastInputType(lastInputType)
                .messageHistory(history)
                .state(state)
                .metadata(metadata)
                .parentCheckpointId(parent.map(Head::checkpointId).orElse(null))
                .build();
    }

    /**
     * Saves a checkpoint only if {@code expectedHead} is still the agent's newest: a compare-and-set on the agent's
     * head. The checkpoint gets version {@code expectedHead.version() + 1} and {@code expectedHead} as its parent
     * (version 0 and no parent when {@code expectedHead} is empty: the agent must have no checkpoint yet). Unlike
     * {@link #createCheckpoint}, it never reloads the latest and tries again: when another writer saved since
     * {@code expectedHead} was read, the save is refused and nothing is stored. For writers that must not build on a
     * state they did not read (a pipeline runner that claimed a run, the answer to a waiting run); the retrying
     * {@link #createCheckpoint} stays the method for single-writer code.
     *
     * @param expectedHead the newest checkpoint the caller read ({@link #latestCheckpoint}), or empty for a new agent
     * @param metadata filterable metadata
     * @return the saved checkpoint, whose parent is {@code expectedHead}
     * @throws CheckpointConflictException when the agent's newest checkpoint is no longer {@code expectedHead} (the
     *     provider checks it in the same step as it stores, {@link PersistenceStorageProvider#saveCheckpointAfter}, so
     *     a version freed by a deletion cannot be reused by a stale writer), or the version after it is already taken
     * @throws IllegalArgumentException when {@code expectedHead} is a checkpoint of another agent
     */
    public AgentCheckpoint createCheckpointAfter(
            Optional<AgentCheckpoint> expectedHead,
            AgentContext context,
            String nodeId,
            JsonNode lastInput,
            String lastInputType,
            Map<String, String> metadata) {
        Objects.requireNonNull(expectedHead, "expectedHead");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(metadata, "metadata");
        String agentId = writable(context.agentId(), "agentId");
        Optional<Head> head = expectedHead.map(cp -> requireHeadOf(agentId, cp));
        String checkpointId = Identifiers.requireValid(checkpointIds.get(), "generated checkpointId");
        var checkpoint = checkpointAfter(
                head,
                checkpointId,
                agentId,
                nodeId,
                lastInput,
                lastInputType,
                context.messageHistory(),
                context.state(),
                metadata);
        return observations.create("checkpoint", observation -> saveAfter(agentId, expectedHead, checkpoint));
    }

    /**
     * As {@link #markRunCompleted}, but only if {@code expectedHead} is still the agent's newest (see
     * {@link #createCheckpointAfter}): the tombstone gets the version after it and it as parent, never a later one.
     *
     * @return the tombstone saved
     * @throws CheckpointConflictException when the version after {@code expectedHead} is already taken
     * @throws IllegalArgumentException when {@code expectedHead} is a checkpoint of another agent
     */
    public AgentCheckpoint markRunCompletedAfter(AgentCheckpoint expectedHead, AgentContext context) {
        Objects.requireNonNull(expectedHead, "expectedHead");
        Objects.requireNonNull(context, "context");
        String agentId = writable(context.agentId(), "agentId");
        var tombstone = tombstoneAfter(Optional.of(requireHeadOf(agentId, expectedHead)), agentId);
        return observations.create(
                "tombstone", observation -> saveAfter(agentId, Optional.of(expectedHead), tombstone));
    }

    /**
     * The hook a framework calls after each node: creates a checkpoint when automatic persistence is on, else does
     * nothing.
     *
     * @return the checkpoint created, or empty when automatic persistence is off
     */
    public Optional<AgentCheckpoint> onNodeCompleted(
            AgentContext context, String nodeId, JsonNode input, String inputType) {
        Objects.requireNonNull(context, "context");
        if (!automaticPersistence) {
            return Optional.empty();
        }
        return Optional.of(createCheckpoint(context, nodeId, input, inputType));
    }

    /**
     * Records that the agent's run completed by saving a tombstone as its newest checkpoint, so
     * {@link #rollbackToLatestCheckpoint} starts fresh instead of resuming the finished run. In automatic mode the
     * framework integration calls this when a run completes.
     *
     * @return the tombstone saved
     */
    public AgentCheckpoint markRunCompleted(AgentContext context) {
        Objects.requireNonNull(context, "context");
        String agentId = writable(context.agentId(), "agentId");
        return saveNext(agentId, "tombstone", latest -> tombstoneAfter(latest, agentId));
    }

    /** A tombstone of {@code agentId} right after {@code parent}: its next version, with it as parent. */
    private AgentCheckpoint tombstoneAfter(Optional<Head> parent, String agentId) {
        return AgentCheckpoint.tombstone(
                        agentId, parent.map(head -> head.version() + 1).orElse(0L), clock.instant())
                .toBuilder()
                .parentCheckpointId(parent.map(Head::checkpointId).orElse(null))
                .build();
    }

    /**
     * Undoes the tool calls made after checkpoint {@code checkpointId} and restores it into {@code context}.
     *
     * @throws CheckpointNotFoundException when the agent has no such checkpoint
     * @throws IllegalArgumentException when the checkpoint is a tombstone (it marks a finished run, not a point to
     *     resume)
     */
    public RollbackReport rollbackToCheckpoint(String checkpointId, AgentContext context) {
        Identifiers.requireValid(checkpointId, "checkpointId");
        Objects.requireNonNull(context, "context");
        return observations.rollback("checkpoint", observation -> {
            String agentId = writable(context.agentId(), "agentId");
            var checkpoint = storage.getCheckpoint(agentId, checkpointId)
                    .orElseThrow(() -> new CheckpointNotFoundException(agentId, checkpointId));
            if (checkpoint.isTombstone()) {
                throw new IllegalArgumentException("Checkpoint '" + checkpointId + "' of agent '" + agentId
                        + "' is a tombstone marking a completed run; it cannot be restored");
            }
            return restore(checkpoint, context, observation);
        });
    }

    /**
     * Undoes the tool calls made after the agent's newest checkpoint and restores it into {@code context}. When the
     * agent has no checkpoint, or the newest is a tombstone (its last run completed: start fresh), nothing is undone or
     * restored and the report's {@link RollbackReport#restoredCheckpoint()} is empty.
     */
    public RollbackReport rollbackToLatestCheckpoint(AgentContext context) {
        Objects.requireNonNull(context, "context");
        return observations.rollback("latest", observation -> {
            String agentId = writable(context.agentId(), "agentId");
            var latest = storage.getLatestCheckpoint(agentId);
            if (latest.isEmpty()) {
                return RollbackReport.nothingRestored(RollbackReport.Outcome.NO_CHECKPOINT);
            } else if (latest.get().isTombstone()) {
                return RollbackReport.nothingRestored(RollbackReport.Outcome.RUN_COMPLETED);
            }
            return restore(latest.get(), context, observation);
        });
    }

    /**
     * Puts the agent at {@code nodeId} with the given history and input, keeping its current state. Saves nothing and
     * undoes no tool calls.
     */
    public void setExecutionPoint(AgentContext context, String nodeId, List<Message> messageHistory, JsonNode input) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(messageHistory, "messageHistory");
        context.restore(new ExecutionPoint(nodeId, messageHistory, input, context.state()));
    }

    /** Every checkpoint of the agent, tombstones included, ascending by version. */
    public List<AgentCheckpoint> checkpoints(String agentId) {
        return storage.getCheckpoints(Identifiers.requireValid(agentId, "agentId"));
    }

    /** The agent's newest checkpoint (possibly a tombstone). */
    public Optional<AgentCheckpoint> latestCheckpoint(String agentId) {
        return storage.getLatestCheckpoint(Identifiers.requireValid(agentId, "agentId"));
    }

    /** One checkpoint of the agent by id. */
    public Optional<AgentCheckpoint> checkpoint(String agentId, String checkpointId) {
        return storage.getCheckpoint(
                Identifiers.requireValid(agentId, "agentId"), Identifiers.requireValid(checkpointId, "checkpointId"));
    }

    /**
     * Forks an agent: creates {@code newAgentId} whose first checkpoint (version 0) is a copy of checkpoint
     * {@code checkpointId} of {@code agentId} (history, state, input, node, metadata), stamped now and recording its
     * origin ({@link ForkOrigin}) in its metadata. The parent's checkpoints are not touched; the two agents go on
     * independently. Works on every provider: the copy is an ordinary save. Where the storage shell keeps the parent's
     * history in its message log, the fork's checkpoints reference the parent's entries instead of copying them (a
     * marker in the parent's log names the fork, so collecting the parent's log keeps what the fork needs, also after
     * the parent is deleted). Retention that deletes the fork's version 0 also deletes its recorded origin.
     *
     * @return the fork's first checkpoint
     * @throws CheckpointNotFoundException when {@code agentId} has no such checkpoint
     * @throws IllegalArgumentException when the checkpoint is a tombstone, or both ids are equal
     * @throws AgentAlreadyExistsException when {@code newAgentId} already has checkpoints
     * @throws CheckpointConflictException when another writer forked into {@code newAgentId} at the same time
     */
    public AgentCheckpoint fork(String agentId, String checkpointId, String newAgentId) {
        Identifiers.requireValid(agentId, "agentId");
        Identifiers.requireValid(checkpointId, "checkpointId");
        writable(newAgentId, "newAgentId");
        if (agentId.equals(newAgentId)) {
            throw new IllegalArgumentException("cannot fork agent '" + agentId + "' into itself");
        }
        AgentCheckpoint source = storage.getCheckpoint(agentId, checkpointId)
                .orElseThrow(() -> new CheckpointNotFoundException(agentId, checkpointId));
        if (source.isTombstone()) {
            throw new IllegalArgumentException("checkpoint '" + checkpointId + "' of agent '" + agentId
                    + "' is a completion tombstone; fork from a checkpoint holding state");
        }
        storage.getLatestCheckpoint(newAgentId).ifPresent(existing -> {
            throw new AgentAlreadyExistsException(
                    newAgentId, "its newest is version " + existing.version() + "; fork into a new agent id");
        });
        AgentCheckpoint first = Forks.firstCheckpoint(source, newAgentId, clock.instant());
        storage.saveCheckpointAfter(newAgentId, Optional.empty(), first);
        remember(newAgentId, first);
        return first;
    }

    /**
     * Where {@code agentId} comes from: its {@link ForkOrigin}, then its parent's, up to an agent that was not forked.
     * Empty for an agent that was not forked. One lookup by id per ancestor.
     */
    public List<ForkOrigin> lineage(String agentId) {
        Identifiers.requireValid(agentId, "agentId");
        var chain = new java.util.ArrayList<ForkOrigin>();
        var seen = new java.util.HashSet<String>();
        String current = agentId;
        while (seen.add(current)) {
            Optional<ForkOrigin> origin = storage.getCheckpoint(current, Forks.originCheckpointId(current))
                    .flatMap(ForkOrigin::of);
            if (origin.isEmpty()) {
                break;
            }
            chain.add(origin.get());
            current = origin.get().parentAgentId();
        }
        return List.copyOf(chain);
    }

    /**
     * A facade over the same storage, rollback tools, clock and settings that writes the agents of {@code namespace}:
     * the agent ids it is given are stored ids of that namespace ({@link AgentNamespace#agentId}).
     */
    public AgentPersistence inNamespace(AgentNamespace namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return namespace.equals(this.namespace) ? this : withNamespace(namespace);
    }

    /**
     * A facade over the same storage, rollback tools, clock and settings that writes agent ids given without a
     * namespace (none of them reserved), as one built without {@link Builder#namespace}.
     */
    public AgentPersistence withoutNamespace() {
        return namespace == null ? this : withNamespace(null);
    }

    private AgentPersistence withNamespace(AgentNamespace namespace) {
        var builder = builder()
                .storage(storage)
                .rollbackTools(rollbackTools)
                .automaticPersistence(automaticPersistence)
                .clock(clock)
                .observationRegistry(observationRegistry)
                .maxConflictRetries(maxConflictRetries)
                .checkpointIds(checkpointIds);
        return namespace == null
                ? builder.build()
                : builder.namespace(namespace).build();
    }

    /** The namespace this facade writes, or empty when it writes ids given without one. */
    public Optional<AgentNamespace> namespace() {
        return Optional.ofNullable(namespace);
    }

    /** The storage checkpoints go to. */
    public PersistenceStorageProvider<?> storage() {
        return storage;
    }

    /** The inverses used by rollbacks. */
    public RollbackToolRegistry rollbackTools() {
        return rollbackTools;
    }

    /** Whether {@link #onNodeCompleted} creates checkpoints. */
    public boolean isAutomaticPersistence() {
        return automaticPersistence;
    }

    /** The clock checkpoints are stamped with. */
    public Clock clock() {
        return clock;
    }

    /** How often a save is retried after a version conflict. */
    public int maxConflictRetries() {
        return maxConflictRetries;
    }

    @Override
    public String toString() {
        return "AgentPersistence[storage=" + storage + ", rollbackTools=" + rollbackTools + ", automaticPersistence="
                + automaticPersistence + ", maxConflictRetries=" + maxConflictRetries + "]";
    }

    /** {@code agentId} when this facade may write it: valid, and in its namespace (or in none when it has none). */
    private String writable(String agentId, String what) {
        if (namespace == null) {
            return AgentNamespace.requireUnreserved(agentId, what);
        }
        Identifiers.requireValid(agentId, what);
        if (!namespace.contains(agentId)) {
            throw new InvalidIdentifierException(what + " '" + agentId + "' is not an agent of namespace '" + namespace
                    + "': this facade writes only ids starting with '" + namespace.prefix() + "'");
        }
        return agentId;
    }

    private RollbackReport restore(
            AgentCheckpoint checkpoint, AgentContext context, AgentObservationContext observation) {
        var calls = ToolCallHistory.callsAfter(checkpoint.messageHistory(), context.messageHistory());
        var result = rollbackTools.undo(calls);
        FacadeObservations.countInverseCalls(
                observation, result.performed().size(), result.failures().size());
        context.restore(ExecutionPoint.of(checkpoint));
        LOG.debug(
                "Agent '{}' rolled back to checkpoint '{}' (version {}): {} inverse calls, {} failed, {} without "
                        + "inverse",
                checkpoint.agentId(),
                checkpoint.checkpointId(),
                checkpoint.version(),
                result.performed().size(),
                result.failures().size(),
                result.withoutInverse().size());
        return RollbackReport.restored(checkpoint, result);
    }

    /** Saves the checkpoint {@code next} builds from the current latest, retrying on version conflicts. */
    private AgentCheckpoint saveNext(String agentId, String kind, Function<Optional<Head>, AgentCheckpoint> next) {
        return observations.create(kind, observation -> saveNext(agentId, kind, next, observation));
    }

    private AgentCheckpoint saveNext(
            String agentId,
            String kind,
            Function<Optional<Head>, AgentCheckpoint> next,
            AgentObservationContext observation) {
        CheckpointConflictException conflict = null;
        boolean trustHead = true;
        int attempt = 0;
        while (attempt <= maxConflictRetries) {
            Head head = trustHead ? heads.get(agentId) : null;
            var checkpoint = next.apply(
                    head != null
                            ? Optional.of(head)
                            : storage.getLatestCheckpoint(agentId).map(Head::of));
            try {
                storage.saveCheckpoint(agentId, checkpoint);
                remember(agentId, checkpoint);
                return checkpoint;
            } catch (CheckpointConflictException e) {
                heads.remove(agentId);
                conflict = e;
                if (head != null) {
                    // Another writer moved on since this facade's last save: reload and try again.
                    // Counted as a conflict retry, but not against maxConflictRetries.
                    trustHead = false;
                    FacadeObservations.countConflictRetry(observation);
                    continue;
                }
                LOG.debug(
                        "Version {} of agent '{}' was taken by another writer (attempt {} of {})",
                        checkpoint.version(),
                        agentId,
                        attempt + 1,
                        maxConflictRetries + 1);
                attempt++;
                if (attempt <= maxConflictRetries) {
                    FacadeObservations.countConflictRetry(observation);
                }
            }
        }
        var failure = new CheckpointConflictException(
                agentId,
                conflict.checkpointId(),
                conflict.version(),
                "Could not save a " + kind + " of agent '" + agentId + "': other writers took the next version on "
                        + (maxConflictRetries == 0
                                ? "the only attempt"
                                : "all " + (maxConflictRetries + 1) + " attempts")
                        + "; last: " + conflict.getMessage());
        failure.addSuppressed(conflict);
        throw failure;
    }

    /**
     * Saves {@code checkpoint} right after {@code head}, by the provider's compare-and-set on the agent's head; a
     * conflict is reported, never retried.
     */
    private AgentCheckpoint saveAfter(String agentId, Optional<AgentCheckpoint> head, AgentCheckpoint checkpoint) {
        try {
            storage.saveCheckpointAfter(agentId, head, checkpoint);
        } catch (CheckpointConflictException e) {
            heads.remove(agentId);
            throw e;
        }
        remember(agentId, checkpoint);
        return checkpoint;
    }

    private static Head requireHeadOf(String agentId, AgentCheckpoint expectedHead) {
        return Head.of(HeadCondition.requireOfAgent(agentId, expectedHead));
    }

    private void remember(String agentId, AgentCheckpoint saved) {
        if (heads.size() >= MAX_CACHED_HEADS && !heads.containsKey(agentId)) {
            heads.clear();
        }
        heads.merge(agentId, Head.of(saved), (old, fresh) -> fresh.version() > old.version() ? fresh : old);
    }

    /** The version and id of an agent's newest checkpoint: all a save needs to know of it. */
    private record Head(long version, String checkpointId) {
        static Head of(AgentCheckpoint checkpoint) {
            return new Head(checkpoint.version(), checkpoint.checkpointId());
        }
    }

    /** Configures an {@link AgentPersistence}. */
    public static final class Builder {
        private PersistenceStorageProvider<?> storage;
        private RollbackToolRegistry rollbackTools = RollbackToolRegistry.EMPTY;
        private boolean automaticPersistence;
        private Clock clock = Clock.systemUTC();
        private ObservationRegistry observations = ObservationRegistry.NOOP;
        private int maxConflictRetries = DEFAULT_MAX_CONFLICT_RETRIES;
        private Supplier<String> checkpointIds = () -> UUID.randomUUID().toString();
        private AgentNamespace namespace;

        private Builder() {}

        /**
         * The namespace the facade writes (see {@link AgentPersistence#inNamespace}); default none: ids given without a
         * namespace, none of them reserved.
         */
        public Builder namespace(AgentNamespace namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** Where checkpoints are stored. Required. */
        public Builder storage(PersistenceStorageProvider<?> storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
            return this;
        }

        /** The inverses rollbacks call; default {@link RollbackToolRegistry#EMPTY}. */
        public Builder rollbackTools(RollbackToolRegistry rollbackTools) {
            this.rollbackTools = Objects.requireNonNull(rollbackTools, "rollbackTools");
            return this;
        }

        /** Whether {@link #onNodeCompleted} creates a checkpoint after every node; default {@code false}. */
        public Builder automaticPersistence(boolean automaticPersistence) {
            this.automaticPersistence = automaticPersistence;
            return this;
        }

        /** The clock for {@link AgentCheckpoint#createdAt()}; default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Where checkpoint creation and rollbacks are observed (see the class documentation); default none. */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            return this;
        }

        /**
         * How often a save is retried after a version conflict; default
         * {@value AgentPersistence#DEFAULT_MAX_CONFLICT_RETRIES}, at least 0.
         */
        public Builder maxConflictRetries(int maxConflictRetries) {
            if (maxConflictRetries < 0) {
                throw new IllegalArgumentException("maxConflictRetries must be >= 0 but was " + maxConflictRetries);
            }
            this.maxConflictRetries = maxConflictRetries;
            return this;
        }

        /**
         * Where new checkpoint ids come from; default random UUIDs. Each id must be unique and valid
         * ({@link Identifiers}).
         */
        public Builder checkpointIds(Supplier<String> checkpointIds) {
            this.checkpointIds = Objects.requireNonNull(checkpointIds, "checkpointIds");
            return this;
        }

        /** @throws IllegalStateException when no storage was set */
        public AgentPersistence build() {
            if (storage == null) {
                throw new IllegalStateException("AgentPersistence needs a storage provider: call storage(...)");
            }
            return new AgentPersistence(this);
        }
    }
}
