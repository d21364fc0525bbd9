package dev.agentpersistence.memory;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointNotFoundException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackReport;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.ToolCallHistory;
import dev.agentpersistence.UndoResult;
import dev.agentpersistence.memory.internal.ConversationWindow;
import dev.agentpersistence.observation.internal.ConversationObservations;
import dev.agentpersistence.observation.internal.ConversationObservations.Operation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Chat memory over any {@link PersistenceStorageProvider}: the conversation core the framework adapters (LangChain4j,
 * Spring AI) are built on.
 *
 * <p><b>Stored form.</b> A conversation is an agent whose id is the conversation id after an optional
 * {@linkplain Builder#agentIdPrefix prefix}, in the store's {@linkplain Builder#namespace namespace} when it has one
 * ({@code "@" + namespace + "/" + prefix + conversationId}, so no conversation id can name an agent of another kind);
 * without a namespace, ids reserved for namespaces ({@link AgentNamespace#isReserved}) are refused. Every change saves
 * one new checkpoint, built from the previous one (same node, input, state and metadata; next version; the previous one
 * as parent), whose {@link AgentCheckpoint#messageHistory()} is the whole history: nothing is ever deleted and
 * re-inserted, and a provider with incremental history writes only the new messages. The window, the part of the
 * history a framework hands to its model, is recorded in the checkpoint's metadata under {@value #WINDOW_METADATA_KEY}
 * (as ranges of history positions; absent when the window is the whole history). Checkpoints written by
 * {@link dev.agentpersistence.AgentPersistence} for the same agent read as conversations whose window is their whole
 * history, and rollbacks to any of these checkpoints undo the tool calls recorded after it
 * ({@link dev.agentpersistence.RollbackToolRegistry}).
 *
 * <p><b>Changes.</b> {@link #append} adds messages to the end of the history and of the window. {@link #replace(String,
 * List)} takes the whole window from a framework that hands over its complete list: the longest leading part of the
 * list found in order in the stored window is kept (compared by content, so ids need not survive the framework), other
 * stored window messages are evicted from the window (they stay in the history), and the rest of the list is appended.
 * The window's head is aligned by {@link WindowRule} in every save and every read, so a window never starts with an
 * orphaned tool result, whatever a framework hands over or an earlier version stored.
 *
 * <p><b>Concurrency.</b> Each change is one atomic save. Writers in this store take turns per conversation; writers
 * elsewhere (other stores, other processes) are detected by the storage ({@link CheckpointConflictException}): the
 * change is then applied again to the reloaded conversation, at most {@link Builder#maxConflictRetries(int)} more
 * times, then {@link ConversationConflictException}. Appends therefore never lose a message, and each writer's messages
 * keep their order. {@link #replace(Conversation, List)} applies a framework's list to the conversation as the
 * framework read it, so messages other writers added meanwhile are kept (an append re-applied on a newer head is such a
 * merge); a replace whose base another writer has since rolled back or rewritten would drop that writer's messages and
 * is refused with {@link ConversationConflictException}, writing nothing.
 *
 * <p><b>Retention.</b> Every checkpoint holds the whole history, so trimming old checkpoints (for example a
 * {@link dev.agentpersistence.history.RetentionSweeper} with {@code RetentionPolicy.custom().keepLatest(n)}) never
 * loses a message, only older points to roll back to.
 *
 * <p>Thread-safe. It does not own the storage: close the provider yourself.
 */
public final class ConversationStore {
    /** The checkpoint metadata key holding the window; absent when the window is the whole history. */
    public static final String WINDOW_METADATA_KEY = "conversation.window";
    /** The node id of the first checkpoint of a conversation. */
    public static final String NODE_ID = "conversation";
    /** How often a change is applied again after losing a race, unless configured otherwise. */
    public static final int DEFAULT_MAX_CONFLICT_RETRIES = 32;

    private static final int LOCK_STRIPES = 64;
    private static final long MAX_PAUSE_NANOS = 100_000_000L;

    private final PersistenceStorageProvider<?> storage;
    private final Clock clock;
    private final int maxConflictRetries;
    private final Supplier<String> checkpointIds;
    private final AgentIdMapping ids;
    private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
    private final ConversationObservations observations;

    private ConversationStore(Builder builder) {
        this.storage = builder.storage;
        this.clock = builder.clock;
        this.maxConflictRetries = builder.maxConflictRetries;
        this.checkpointIds = builder.checkpointIds;
        this.ids = AgentIdMapping.of("conversation", "conversationId", builder.namespace, builder.agentIdPrefix, "");
        this.observations = new ConversationObservations(builder.observations);
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** A store over {@code storage} with the default settings. */
    public static ConversationStore of(PersistenceStorageProvider<?> storage) {
        return builder(storage).build();
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(Objects.requireNonNull(storage, "storage"));
    }

    /** The conversation as stored now; an empty one (version -1) when nothing is stored. */
    public Conversation load(String conversationId) {
        return observations.observe(Operation.LOAD, () -> read(conversationId));
    }

    private Conversation read(String conversationId) {
        var latest = storage.getLatestCheckpoint(agentId(conversationId));
        return latest.isEmpty() ? Conversation.empty(conversationId) : conversationOf(conversationId, latest.get());
    }

    /** The conversation's window: the messages to hand to a model; empty when nothing is stored. */
    public List<Message> messages(String conversationId) {
        return observations.observe(Operation.LOAD, () -> read(conversationId)).messages();
    }

    /**
     * Appends {@code messages} to the conversation's history and window in one atomic save.
     *
     * @return the conversation as saved (unchanged, and nothing written, when {@code messages} is empty)
     * @throws ConversationConflictException when other writers won every attempt
     */
    public Conversation append(String conversationId, List<Message> messages) {
        var added = List.copyOf(Objects.requireNonNull(messages, "messages"));
        return observations.observe(
                Operation.APPEND, () -> save(conversationId, current -> ConversationEdit.append(current, added)));
    }

    /**
     * Appends {@code messages} as {@link #append(String, List)} does, but only to a conversation that is stored: when
     * nothing is (never written, or deleted) nothing is written and the answer is empty. The check is the read of the
     * head the append makes anyway, so it costs no extra read.
     *
     * @return the conversation as saved, or empty when none is stored
     * @throws ConversationConflictException when other writers won every attempt
     */
    public Optional<Conversation> appendIfStored(String conversationId, List<Message> messages) {
        var added = List.copyOf(Objects.requireNonNull(messages, "messages"));
        var saved = observations.observe(
                Operation.APPEND,
                () -> save(
                        conversationId,
                        current -> current.checkpoint().isEmpty()
                                ? new ConversationEdit(List.of(), current.window())
                                : ConversationEdit.append(current, added)));
        return saved.checkpoint().isPresent() ? Optional.of(saved) : Optional.empty();
    }

    /** Appends one message; see {@link #append(String, List)}. */
    public Conversation append(String conversationId, Message message) {
        return append(conversationId, List.of(Objects.requireNonNull(message, "message")));
    }

    /**
     * Makes {@code messages} the conversation's window, as a framework that hands over its whole list asks, with the
     * conversation as it is now as the base. Use {@link #replace(Conversation, List)} with what the framework read when
     * other writers may change the conversation in between.
     */
    public Conversation replace(String conversationId, List<Message> messages) {
        var list = List.copyOf(Objects.requireNonNull(messages, "messages"));
        // the base is the conversation the first attempt reads (one read, not a load and then a save's read)
        var base = new Conversation[1];
        return observations.observe(
                Operation.REPLACE,
                () -> save(conversationId, current -> {
                    if (base[0] == null) {
                        base[0] = current;
                    }
                    return ConversationEdit.replace(base[0], current, list);
                }));
    }

    /**
     * Makes {@code messages} the conversation's window, read as a change to {@code base} (what the framework read
     * before building the list): base window messages missing from the list are evicted from the window, the list's new
     * messages are appended, and whatever other writers saved since {@code base} is kept. See the class documentation
     * for the matching rule.
     *
     * @return the conversation as saved (nothing is written when the list is the stored window)
     * @throws ConversationConflictException when other writers won every attempt
     */
    public Conversation replace(Conversation base, List<Message> messages) {
        Objects.requireNonNull(base, "base");
        var list = List.copyOf(Objects.requireNonNull(messages, "messages"));
        return observations.observe(
                Operation.REPLACE,
                () -> save(base.conversationId(), current -> ConversationEdit.replace(base, current, list)));
    }

    /** Empties the window in one save; the history, and so every earlier message, stays stored. */
    public Conversation clear(String conversationId) {
        return observations.observe(
                Operation.CLEAR,
                () -> save(conversationId, current -> new ConversationEdit(List.of(), ConversationWindow.empty())));
    }

    /**
     * Deletes every stored checkpoint of the conversation, history included, and returns how many there were. A writer
     * that read the conversation before the delete and replaces it after writes what it read back, as a new
     * conversation: delete when no one is writing it.
     *
     * @throws UnsupportedOperationException when the provider does not support deletion
     */
    public int delete(String conversationId) {
        return observations.observe(Operation.DELETE, () -> storage.deleteCheckpoints(agentId(conversationId)));
    }

    /**
     * The agent id the conversation is stored under: the prefix followed by the conversation id, in the namespace when
     * the store has one.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when the id is not a valid agent id, is too long for the
     *     namespace, or (without a namespace) starts with a prefix reserved for namespaces
     */
    public String agentId(String conversationId) {
        return ids.agentId(conversationId);
    }

    /**
     * The conversation id stored under {@code agentId}: empty when the agent is not a conversation of this store
     * (another namespace, another prefix).
     */
    public Optional<String> conversationIdOf(String agentId) {
        return ids.idOf(agentId);
    }

    /** The namespace conversations are stored in; empty when their agent ids carry none. */
    public Optional<AgentNamespace> namespace() {
        return ids.namespace();
    }

    /** The storage conversations are kept in. */
    public PersistenceStorageProvider<?> storage() {
        return storage;
    }

    @Override
    public String toString() {
        return "ConversationStore[storage=" + storage
                + ids.namespace().map(namespace -> ", namespace=" + namespace).orElse("")
                + ", agentIdPrefix='" + ids.prefix() + "', maxConflictRetries=" + maxConflictRetries + "]";
    }

    /**
     * Rolls the conversation back to its checkpoint {@code checkpointId}: first undoes the tool calls recorded after it
     * (the {@link Message.Role#TOOL_CALL} messages {@link ToolCallHistory#callsAfter} finds in the current history)
     * with their inverses in {@code tools}, newest first, then saves a copy of the checkpoint (history, window, state)
     * as the conversation's newest checkpoint. The checkpoints in between stay stored, so the rollback itself can be
     * looked at and undone.
     *
     * @throws CheckpointNotFoundException when the conversation has no such checkpoint
     * @throws IllegalArgumentException when the checkpoint is a tombstone
     * @throws ConversationConflictException when other writers won every attempt to save the copy (the inverses have
     *     run by then)
     */
    public RollbackReport rollbackTo(String conversationId, String checkpointId, RollbackToolRegistry tools) {
        return observations.observe(Operation.ROLLBACK, () -> rollback(conversationId, checkpointId, tools));
    }

    private RollbackReport rollback(String conversationId, String checkpointId, RollbackToolRegistry tools) {
        String agentId = agentId(conversationId);
        Identifiers.requireValid(checkpointId, "checkpointId");
        Objects.requireNonNull(tools, "tools");
        var target = storage.getCheckpoint(agentId, checkpointId)
                .orElseThrow(() -> new CheckpointNotFoundException(agentId, checkpointId));
        if (target.isTombstone()) {
            throw new IllegalArgumentException("Checkpoint '" + checkpointId + "' of conversation '" + conversationId
                    + "' is a tombstone marking a completed run; it cannot be restored");
        }
        var undone = new UndoResult[1];
        saveNext(conversationId, current -> {
            if (undone[0] == null) {
                undone[0] = tools.undo(ToolCallHistory.callsAfter(target.messageHistory(), current.history()));
            }
            return Optional.of(target.toBuilder()
                    .checkpointId(Identifiers.requireValid(checkpointIds.get(), "generated checkpointId"))
                    .version(current.version() + 1)
                    .createdAt(clock.instant())
                    .parentCheckpointId(current.checkpoint()
                            .map(AgentCheckpoint::checkpointId)
                            .orElse(null))
                    .build());
        });
        return RollbackReport.restored(target, undone[0]);
    }

    private Conversation save(String conversationId, Function<Conversation, ConversationEdit> change) {
        String agentId = agentId(conversationId);
        return saveNext(conversationId, current -> {
            var edit = change.apply(current).aligned(current.history());
            return edit.changesNothing(current)
                    ? Optional.empty()
                    : Optional.of(nextCheckpoint(agentId, current, edit));
        });
    }

    /**
     * Saves the checkpoint {@code next} builds from the conversation as stored (nothing when it gives none), reloading
     * and building again after each conflict.
     */
    private Conversation saveNext(String conversationId, Function<Conversation, Optional<AgentCheckpoint>> next) {
        String agentId = agentId(conversationId);
        var lock = locks[Math.floorMod(conversationId.hashCode(), LOCK_STRIPES)];
        lock.lock();
        try {
            CheckpointConflictException lastConflict = null;
            for (int attempt = 0; attempt <= maxConflictRetries; attempt++) {
                if (attempt > 0) {
                    pause(attempt);
                }
                var current = read(conversationId);
                var checkpoint = next.apply(current);
                if (checkpoint.isEmpty()) {
                    return current;
                }
                try {
                    storage.saveCheckpointAfter(agentId, current.checkpoint(), checkpoint.get());
                    return conversationOf(conversationId, checkpoint.get());
                } catch (CheckpointConflictException conflict) {
                    lastConflict = conflict;
                }
            }
            throw new ConversationConflictException(conversationId, maxConflictRetries + 1, lastConflict);
        } finally {
            lock.unlock();
        }
    }

    private Conversation conversationOf(String conversationId, AgentCheckpoint checkpoint) {
        if (checkpoint.isTombstone()) {
            return new Conversation(conversationId, checkpoint, List.of(), ConversationWindow.empty());
        }
        ConversationWindow window;
        try {
            window = ConversationWindow.decode(
                    checkpoint.metadata().get(WINDOW_METADATA_KEY),
                    checkpoint.messageHistory().size());
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(
                    checkpoint.agentId(),
                    checkpoint.checkpointId(),
                    "metadata entry '" + WINDOW_METADATA_KEY + "'",
                    e.getMessage(),
                    e);
        }
        var history = checkpoint.messageHistory();
        return new Conversation(conversationId, checkpoint, history, ConversationEdit.alignHead(history, window));
    }

    private AgentCheckpoint nextCheckpoint(String agentId, Conversation current, ConversationEdit edit) {
        var history = new ArrayList<>(current.history());
        history.addAll(edit.appended());
        var previous = current.checkpoint().filter(checkpoint -> !checkpoint.isTombstone());
        var metadata = new TreeMap<>(previous.map(AgentCheckpoint::metadata).orElse(java.util.Map.of()));
        String ranges = edit.window().encode(history.size());
        if (ranges == null) {
            metadata.remove(WINDOW_METADATA_KEY);
        } else {
            metadata.put(WINDOW_METADATA_KEY, ranges);
        }
        var builder = previous.map(AgentCheckpoint::toBuilder)
                .orElseGet(() -> AgentCheckpoint.builder().agentId(agentId).nodeId(NODE_ID));
        return builder.checkpointId(Identifiers.requireValid(checkpointIds.get(), "generated checkpointId"))
                .version(current.version() + 1)
                .createdAt(clock.instant())
                .messageHistory(history)
                .metadata(metadata)
                .parentCheckpointId(
                        current.checkpoint().map(AgentCheckpoint::checkpointId).orElse(null))
                .build();
    }

    /**
     * A random pause before attempt {@code attempt}, up to 0.5 ms doubled per attempt and at most 100 ms ("full
     * jitter"), so writers that keep colliding spread out and none starves.
     */
    private static void pause(int attempt) {
        long maxNanos = Math.min(MAX_PAUSE_NANOS, 500_000L << Math.min(attempt, 20));
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxNanos / 4, maxNanos));
    }

    /** Builds {@link ConversationStore}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> storage;
        private Clock clock = Clock.systemUTC();
        private int maxConflictRetries = DEFAULT_MAX_CONFLICT_RETRIES;
        private Supplier<String> checkpointIds = () -> UUID.randomUUID().toString();
        private String agentIdPrefix = "";
        private AgentNamespace namespace;
        private ObservationRegistry observations = ObservationRegistry.NOOP;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.storage = storage;
        }

        /** The clock checkpoints are stamped with; default UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * How often a change is applied again after another writer saved first; default
         * {@value ConversationStore#DEFAULT_MAX_CONFLICT_RETRIES}.
         */
        public Builder maxConflictRetries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("maxConflictRetries must be >= 0 but was " + retries);
            }
            this.maxConflictRetries = retries;
            return this;
        }

        /** Where new checkpoint ids come from; default random UUIDs. */
        public Builder checkpointIds(Supplier<String> ids) {
            this.checkpointIds = Objects.requireNonNull(ids, "ids");
            return this;
        }

        /**
         * Put in front of every conversation id to make the agent id, e.g. {@code "chat:"}, to keep conversations apart
         * from other agents in the same storage; default none.
         */
        public Builder agentIdPrefix(String prefix) {
            this.agentIdPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /**
         * Stores conversations in {@code namespace}: agent id {@code namespace.agentId(prefix + conversationId)}, so
         * that no conversation id can name an agent of another kind. Default none: the agent id is the prefix followed
         * by the conversation id, and ids reserved for namespaces are refused.
         */
        public Builder namespace(AgentNamespace namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** Stores conversations without a namespace (the default): see {@link #namespace(AgentNamespace)}. */
        public Builder withoutNamespace() {
            this.namespace = null;
            return this;
        }

        /**
         * Where the chat-memory operations are observed (default none): one observation per load, append, replacement,
         * clear, deletion and rollback ({@link dev.agentpersistence.metrics.StorageMetricNames#CONVERSATION}, keys
         * {@code operation} and {@code outcome}); the storage observes its own calls inside them when it was built with
         * the same registry.
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            return this;
        }

        /** The store. */
        public ConversationStore build() {
            return new ConversationStore(this);
        }
    }
}
