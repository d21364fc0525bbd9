package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.memory.AgentIdMapping;
import dev.agentpersistence.memory.WriterHeads;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.StateSerializer;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;

/**
 * A LangGraph4j {@link BaseCheckpointSaver} that keeps every thread in a {@link PersistenceStorageProvider}: in memory,
 * files, SQLite, PostgreSQL, MariaDB, Redis, S3 or your own.
 *
 * <h2>Mapping</h2>
 *
 * <ul>
 *   <li>Thread id → agent id {@code @langgraph4j/<prefix><threadId>} in the namespace {@link #NAMESPACE} (prefix empty
 *       unless set; a config without a thread id uses {@link BaseCheckpointSaver#THREAD_ID_DEFAULT}), so that no thread
 *       id can name a pipeline run, a chat memory or another framework's agent. A store written before namespaces
 *       (agent {@value #DEFAULT_PREFIX}{@code <threadId>}) stays readable and writable with
 *       {@link Builder#withoutNamespace()}.
 *   <li>Each {@code put} → one new {@link AgentCheckpoint}: version = the version of the thread's head + 1 (0 for the
 *       first), node id = the checkpoint's node, state = the state map, one value per key (see below), metadata
 *       {@value #ID} = LangGraph4j's checkpoint id, {@value #NEXT_NODE} = the next node, {@value #THREAD} = the thread
 *       id, and the parent = the previous stored checkpoint. The stored checkpoint id is LangGraph4j's id, or
 *       {@code id#version} when that id is already stored in the thread.
 *   <li>A {@code put} whose config names a checkpoint id replaces that checkpoint in LangGraph4j's view (as
 *       {@code MemorySaver} does): the store stays append-only, the new checkpoint carries {@value #REPLACES} = the
 *       replaced id and takes its place in {@link #list} and {@link #get}.
 *   <li>{@code release} deletes the thread's checkpoints ({@code deleteCheckpoints}) and returns them.
 *   <li>With {@link Builder#messagesKey(String)}, the list under that state key is stored as the checkpoint's message
 *       history (metadata {@value #MESSAGES_KEY} = the key), so a conversation that grows by appending is stored once
 *       with incremental history instead of whole in every checkpoint; reading puts the list back under the key. The
 *       stored checkpoint says so itself, so any saver reads it, whatever its own setting.
 * </ul>
 *
 * <h2>State values</h2>
 *
 * A value that is JSON-mappable ({@link StateValues}) is stored as JSON. Any other value (a record, a POJO, an enum, a
 * LangChain4j message, NaN) is written by the graph's {@link StateSerializer} ({@link Builder#stateSerializer}; by
 * default LangGraph4j's {@link ObjectStreamStateSerializer}, the default of a {@code StateGraph}) and stored as Base64
 * text in the checkpoint's state, its key listed in metadata {@value #SERIALIZED_KEYS}: bounded and encrypted by the
 * store like every other value, and read back through the same serializer. {@link Builder#jsonOnly()} refuses such
 * values instead. A checkpoint stored before serialized values existed reads as it always did.
 *
 * <h2>Sharing a thread</h2>
 *
 * No checkpoint is cached: every call reads the provider, so savers in several JVMs over one store see the same thread.
 * The saver remembers per thread the head it last served ({@code get}, {@code list}) or wrote ({@code put}) and writes
 * the next checkpoint on that head (its version + 1, the head as parent): a {@code put} after another writer moved the
 * thread on (a graph that resumed the thread while this one waited inside a node, then finished) is refused with
 * {@link ThreadConflictException} and nothing is written, and when two writers put on the same head at once, the
 * provider accepts one checkpoint per version and the other is refused the same way. So the history never forks, and
 * nothing is appended after another writer's end. The saver does not retry on its own (a retry would splice two runs
 * into one history): re-read the thread and continue from its latest checkpoint. Each saver is one writer: graphs that
 * must be kept apart use savers of their own. It remembers the heads of at most {@value WriterHeads#DEFAULT_CAPACITY}
 * threads; a forgotten thread's next {@code put} is based on its latest checkpoint, as a first one is.
 *
 * <p>Thread-safe as long as the provider and the state serializer are (the graph shares its serializer the same way).
 */
public final class AgentPersistenceSaver implements BaseCheckpointSaver {
    /** The namespace of LangGraph4j threads: agent id {@code @langgraph4j/<prefix><threadId>}. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("langgraph4j");

    /**
     * Agent id prefix of a saver {@linkplain Builder#withoutNamespace() without a namespace}, unless
     * {@link Builder#agentIdPrefix(String)} says otherwise: the form of versions before namespaces.
     */
    public static final String DEFAULT_PREFIX = "langgraph4j:";
    /** Metadata key: LangGraph4j's checkpoint id. */
    public static final String ID = "langgraph4j.checkpointId";
    /** Metadata key: the next node of the checkpoint (absent when none). */
    public static final String NEXT_NODE = "langgraph4j.nextNodeId";
    /** Metadata key: the thread id. */
    public static final String THREAD = "langgraph4j.threadId";
    /** Metadata key: the state key whose list is stored as the message history. */
    public static final String MESSAGES_KEY = "langgraph4j.messagesKey";
    /** Metadata key: the LangGraph4j checkpoint id this checkpoint replaces. */
    public static final String REPLACES = "langgraph4j.replaces";
    /** Metadata key: the state keys whose values were written by the state serializer, as a JSON array. */
    public static final String SERIALIZED_KEYS = "langgraph4j.serializedKeys";
    /** Metadata key: the class of the state serializer that wrote them. */
    public static final String SERIALIZER = "langgraph4j.serializer";

    private final PersistenceStorageProvider<CheckpointFilter> provider;
    private final AgentIdMapping ids;
    private final Clock clock;
    private final String messagesKey;
    private final StateEncoding encoding;
    private final WriterHeads heads = WriterHeads.bounded(WriterHeads.DEFAULT_CAPACITY);

    private AgentPersistenceSaver(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider");
        this.ids =
                AgentIdMapping.of("LangGraph4j thread", "threadId", builder.namespace, builder.prefix, DEFAULT_PREFIX);
        this.clock = Objects.requireNonNull(builder.clock, "clock");
        this.messagesKey = builder.messagesKey;
        this.encoding = new StateEncoding(builder.jsonOnly ? null : builder.serializer);
    }

    /** A saver over {@code provider} in the namespace {@link #NAMESPACE}. */
    public static AgentPersistenceSaver of(PersistenceStorageProvider<CheckpointFilter> provider) {
        return builder(provider).build();
    }

    /** A builder over {@code provider}. */
    public static Builder builder(PersistenceStorageProvider<CheckpointFilter> provider) {
        return new Builder(provider);
    }

    /**
     * The agent id that holds {@code threadId}.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when the thread id is not valid, too long for the
     *     namespace, or (without a namespace) starts with a prefix reserved for namespaces
     */
    public String agentId(String threadId) {
        return ids.agentId(threadId);
    }

    /** The checkpoints of the config's thread, newest first. */
    @Override
    public Collection<Checkpoint> list(RunnableConfig config) {
        String threadId = threadId(config);
        return Collections.unmodifiableList(view(threadId, agentId(threadId)));
    }

    /** The checkpoint named by the config's checkpoint id, else the thread's latest. */
    @Override
    public Optional<Checkpoint> get(RunnableConfig config) {
        String threadId = threadId(config);
        String agentId = agentId(threadId);
        Optional<String> wanted = config.checkPointId();
        if (wanted.isEmpty()) {
            // The newest stored checkpoint is the newest in LangGraph4j's view unless it replaces another.
            Optional<AgentCheckpoint> latest = provider.getLatestCheckpoint(agentId);
            if (latest.isEmpty()) {
                heads.forget(threadId);
                return Optional.empty();
            }
            heads.remember(threadId, latest.get());
            if (!latest.get().isTombstone() && !latest.get().metadata().containsKey(REPLACES)) {
                return Optional.of(toLangGraph(latest.get()));
            }
        }
        List<Checkpoint> checkpoints = view(threadId, agentId);
        if (wanted.isPresent()) {
            return checkpoints.stream()
                    .filter(c -> c.getId().equals(wanted.get()))
                    .findFirst();
        }
        return checkpoints.isEmpty() ? Optional.empty() : Optional.of(checkpoints.get(0));
    }

    /**
     * Stores {@code checkpoint} as the thread's next version, on the head this saver last served or wrote; with a
     * checkpoint id in the config, as the replacement of that checkpoint.
     *
     * @throws ThreadConflictException when another writer moved the thread on since this saver's head, or took the
     *     version first; nothing written
     * @throws UnsupportedStateValueException when a state value is neither JSON-mappable nor written by the state
     *     serializer (or the saver is {@linkplain Builder#jsonOnly() JSON only}); nothing written
     * @throws NoSuchElementException when the config names a checkpoint the thread does not have
     */
    @Override
    public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        String threadId = threadId(config);
        String agentId = agentId(threadId);
        StateEncoding.Encoded encoded = encoding.encode(checkpoint.getState());
        Map<String, JsonNode> state = encoded.values();

        Optional<String> replaced = config.checkPointId();
        Optional<WriterHeads.Head> head = heads.get(threadId);
        Optional<AgentCheckpoint> latest = provider.getLatestCheckpoint(agentId);
        if (head.isPresent() && !head.get().isStill(latest)) {
            throw ThreadConflictException.superseded(
                    threadId,
                    checkpoint.getId(),
                    head.get().version() + 1,
                    head.get().toString(),
                    latest.map(c -> "'" + c.checkpointId() + "' (version " + c.version() + ")")
                            .orElse("deleted"));
        }
        if (replaced.isPresent()
                && view(threadId, agentId).stream().noneMatch(c -> c.getId().equals(replaced.get()))) {
            throw new NoSuchElementException(
                    "Checkpoint with id " + replaced.get() + " not found in thread '" + threadId + "'");
        }
        long version = latest.map(c -> c.version() + 1).orElse(0L);
        String storedId = provider.getCheckpoint(agentId, checkpoint.getId()).isPresent()
                ? checkpoint.getId() + "#" + version
                : checkpoint.getId();

        var builder = AgentCheckpoint.builder()
                .checkpointId(storedId)
                .agentId(agentId)
                .version(version)
                .createdAt(clock.instant())
                .nodeId(checkpoint.getNodeId())
                .state(state)
                .metadata(ID, checkpoint.getId())
                .metadata(THREAD, threadId)
                .parentCheckpointId(latest.map(AgentCheckpoint::checkpointId).orElse(null));
        if (checkpoint.getNextNodeId() != null) {
            builder.metadata(NEXT_NODE, checkpoint.getNextNodeId());
        }
        if (messagesKey != null && state.get(messagesKey) instanceof ArrayNode list) {
            var rest = new TreeMap<>(state);
            rest.remove(messagesKey);
            builder.state(rest).messageHistory(MessageChannel.toMessages(list)).metadata(MESSAGES_KEY, messagesKey);
        }
        replaced.ifPresent(id -> builder.metadata(REPLACES, id));
        if (!encoded.serializedKeys().isEmpty()) {
            builder.metadata(SERIALIZED_KEYS, StateEncoding.keysMetadata(encoded.serializedKeys()))
                    .metadata(SERIALIZER, encoding.serializerName());
        }
        AgentCheckpoint next = builder.build();
        try {
            provider.saveCheckpointAfter(agentId, latest, next);
        } catch (CheckpointConflictException e) {
            throw new ThreadConflictException(threadId, checkpoint.getId(), version, e);
        }
        heads.remember(threadId, next);
        return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
    }

    /** Deletes the thread's checkpoints and returns them (newest first). */
    @Override
    public Tag release(RunnableConfig config) {
        String threadId = threadId(config);
        String agentId = agentId(threadId);
        List<Checkpoint> checkpoints = view(threadId, agentId);
        provider.deleteCheckpoints(agentId);
        heads.forget(threadId);
        return new Tag(threadId, checkpoints);
    }

    /** LangGraph4j's view of a thread, newest first: replacements take the place of what they replace. */
    private List<Checkpoint> view(String threadId, String agentId) {
        var slots = new ArrayList<Checkpoint>();
        List<AgentCheckpoint> all = provider.getCheckpoints(agentId);
        if (all.isEmpty()) {
            heads.forget(threadId);
        } else {
            heads.remember(threadId, all.get(all.size() - 1));
        }
        for (AgentCheckpoint stored : all) {
            if (stored.isTombstone()) {
                continue;
            }
            Checkpoint checkpoint = toLangGraph(stored);
            String replaces = stored.metadata().get(REPLACES);
            int slot = -1;
            if (replaces != null) {
                for (int i = slots.size() - 1; i >= 0; i--) {
                    if (slots.get(i).getId().equals(replaces)) {
                        slot = i;
                        break;
                    }
                }
            }
            if (slot >= 0) {
                slots.set(slot, checkpoint);
            } else {
                slots.add(checkpoint);
            }
        }
        Collections.reverse(slots);
        return slots;
    }

    private Checkpoint toLangGraph(AgentCheckpoint stored) {
        Map<String, JsonNode> state = stored.state();
        String key = stored.metadata().get(MESSAGES_KEY);
        if (key != null) {
            state = new TreeMap<>(state);
            state.put(key, MessageChannel.toList(stored.agentId(), stored.checkpointId(), stored.messageHistory()));
        }
        return Checkpoint.builder()
                .id(stored.metadata().getOrDefault(ID, stored.checkpointId()))
                .nodeId(stored.nodeId())
                .nextNodeId(stored.metadata().get(NEXT_NODE))
                .state(encoding.decode(stored, state))
                .build();
    }

    /** Builds {@link AgentPersistenceSaver}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<CheckpointFilter> provider;
        private String prefix;
        private AgentNamespace namespace = NAMESPACE;
        private Clock clock = Clock.systemUTC();
        private String messagesKey;
        private StateSerializer<?> serializer = new ObjectStreamStateSerializer<>(AgentState::new);
        private boolean jsonOnly;

        private Builder(PersistenceStorageProvider<CheckpointFilter> provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * The prefix put before a thread id to form its local id in the namespace (or, without a namespace, its agent
         * id); may be empty. Default: empty, and {@value #DEFAULT_PREFIX} without a namespace.
         */
        public Builder agentIdPrefix(String prefix) {
            this.prefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /** Stores threads in {@code namespace} instead of {@link #NAMESPACE}. */
        public Builder namespace(AgentNamespace namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /**
         * Stores threads as versions before namespaces did, agent id {@code prefix + threadId} (prefix
         * {@value #DEFAULT_PREFIX} unless set), to keep reading and writing a store they wrote. Thread agent ids
         * reserved for namespaces (starting with {@code @}) are then refused.
         */
        public Builder withoutNamespace() {
            this.namespace = null;
            return this;
        }

        /** The clock of {@code createdAt}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The state key whose list (LangGraph4j's {@code MessagesState} uses {@code "messages"}) is stored as the
         * checkpoint's message history, once with incremental history, rather than whole in every checkpoint's state.
         * Not set by default: the whole state is stored as JSON.
         */
        public Builder messagesKey(String key) {
            if (Objects.requireNonNull(key, "key").isBlank()) {
                throw new IllegalArgumentException("messagesKey must not be blank");
            }
            this.messagesKey = key;
            return this;
        }

        /**
         * The serializer of state values that are not JSON-mappable: the graph's own,
         * {@code stateGraph.getStateSerializer()}, so that the types registered with it are stored as the graph itself
         * serializes them. Default: an {@link ObjectStreamStateSerializer}, as a {@code StateGraph} built without one
         * uses.
         */
        public Builder stateSerializer(StateSerializer<?> serializer) {
            this.serializer = Objects.requireNonNull(serializer, "serializer");
            this.jsonOnly = false;
            return this;
        }

        /**
         * Stores JSON-mappable state values only: a {@code put} with any other value fails with
         * {@link UnsupportedStateValueException}, and a checkpoint holding serialized values does not read
         * ({@link UnreadableStateValueException}). For stores that must never hold serialized Java objects.
         */
        public Builder jsonOnly() {
            this.jsonOnly = true;
            return this;
        }

        /** The saver. */
        public AgentPersistenceSaver build() {
            return new AgentPersistenceSaver(this);
        }
    }
}
