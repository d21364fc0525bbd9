package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
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

/**
 * A LangGraph4j {@link BaseCheckpointSaver} that keeps every thread in a {@link PersistenceStorageProvider}: in memory,
 * files, SQLite, PostgreSQL, MariaDB, Redis, S3 or your own.
 *
 * <h2>Mapping</h2>
 *
 * <ul>
 *   <li>Thread id → agent id {@code prefix + threadId} (prefix {@value #DEFAULT_PREFIX} unless set; a config without a
 *       thread id uses {@link BaseCheckpointSaver#THREAD_ID_DEFAULT}).
 *   <li>Each {@code put} → one new {@link AgentCheckpoint}: version = the thread's latest version + 1 (0 for the
 *       first), node id = the checkpoint's node, state = the state map as JSON ({@link StateValues}), metadata
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
 * <h2>Sharing a thread</h2>
 *
 * Nothing is cached: every call reads the provider, so savers in several JVMs over one store see the same thread. When
 * two writers put on the same thread at once, the provider accepts one checkpoint per version; the loser gets a
 * {@link ThreadConflictException} and its checkpoint is not written, so the history never forks silently. The saver
 * does not retry on its own (a retry would splice two runs into one history): re-read the thread and continue from its
 * latest checkpoint.
 *
 * <p>Thread-safe as long as the provider is.
 */
public final class AgentPersistenceSaver implements BaseCheckpointSaver {
    /** Agent id prefix used unless {@link Builder#agentIdPrefix(String)} says otherwise. */
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

    private final PersistenceStorageProvider<CheckpointFilter> provider;
    private final String prefix;
    private final Clock clock;
    private final String messagesKey;

    private AgentPersistenceSaver(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider");
        this.prefix = Objects.requireNonNull(builder.prefix, "agentIdPrefix");
        this.clock = Objects.requireNonNull(builder.clock, "clock");
        this.messagesKey = builder.messagesKey;
    }

    /** A saver over {@code provider} with the default prefix. */
    public static AgentPersistenceSaver of(PersistenceStorageProvider<CheckpointFilter> provider) {
        return builder(provider).build();
    }

    public static Builder builder(PersistenceStorageProvider<CheckpointFilter> provider) {
        return new Builder(provider);
    }

    /** The agent id that holds {@code threadId}. */
    public String agentId(String threadId) {
        return prefix + threadId;
    }

    /** The checkpoints of the config's thread, newest first. */
    @Override
    public Collection<Checkpoint> list(RunnableConfig config) {
        return Collections.unmodifiableList(view(agentId(threadId(config))));
    }

    /** The checkpoint named by the config's checkpoint id, else the thread's latest. */
    @Override
    public Optional<Checkpoint> get(RunnableConfig config) {
        String agentId = agentId(threadId(config));
        Optional<String> wanted = config.checkPointId();
        if (wanted.isEmpty()) {
            // The newest stored checkpoint is the newest in LangGraph4j's view unless it replaces another.
            Optional<AgentCheckpoint> latest = provider.getLatestCheckpoint(agentId);
            if (latest.isEmpty()) {
                return Optional.empty();
            }
            if (!latest.get().isTombstone() && !latest.get().metadata().containsKey(REPLACES)) {
                return Optional.of(toLangGraph(latest.get()));
            }
        }
        List<Checkpoint> checkpoints = view(agentId);
        if (wanted.isPresent()) {
            return checkpoints.stream()
                    .filter(c -> c.getId().equals(wanted.get()))
                    .findFirst();
        }
        return checkpoints.isEmpty() ? Optional.empty() : Optional.of(checkpoints.get(0));
    }

    /**
     * Stores {@code checkpoint} as the thread's next version; with a checkpoint id in the config, as the replacement of
     * that checkpoint.
     *
     * @throws ThreadConflictException when another writer took the version first; nothing written
     * @throws UnsupportedStateValueException when a state value is not JSON-mappable; nothing written
     * @throws NoSuchElementException when the config names a checkpoint the thread does not have
     */
    @Override
    public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        String threadId = threadId(config);
        String agentId = agentId(threadId);
        var state = StateValues.toJson(checkpoint.getState());

        Optional<String> replaced = config.checkPointId();
        Optional<AgentCheckpoint> latest = provider.getLatestCheckpoint(agentId);
        if (replaced.isPresent() && get(config).isEmpty()) {
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
        try {
            provider.saveCheckpoint(agentId, builder.build());
        } catch (CheckpointConflictException e) {
            throw new ThreadConflictException(threadId, checkpoint.getId(), version, e);
        }
        return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
    }

    /** Deletes the thread's checkpoints and returns them (newest first). */
    @Override
    public Tag release(RunnableConfig config) {
        String threadId = threadId(config);
        String agentId = agentId(threadId);
        List<Checkpoint> checkpoints = view(agentId);
        provider.deleteCheckpoints(agentId);
        return new Tag(threadId, checkpoints);
    }

    /** LangGraph4j's view of a thread, newest first: replacements take the place of what they replace. */
    private List<Checkpoint> view(String agentId) {
        var slots = new ArrayList<Checkpoint>();
        for (AgentCheckpoint stored : provider.getCheckpoints(agentId)) {
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

    private static Checkpoint toLangGraph(AgentCheckpoint stored) {
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
                .state(StateValues.fromJson(state))
                .build();
    }

    /** Builds {@link AgentPersistenceSaver}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<CheckpointFilter> provider;
        private String prefix = DEFAULT_PREFIX;
        private Clock clock = Clock.systemUTC();
        private String messagesKey;

        private Builder(PersistenceStorageProvider<CheckpointFilter> provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /** The prefix put before a thread id to form the agent id; may be empty. */
        public Builder agentIdPrefix(String prefix) {
            this.prefix = Objects.requireNonNull(prefix, "prefix");
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

        /** The saver. */
        public AgentPersistenceSaver build() {
            return new AgentPersistenceSaver(this);
        }
    }
}
