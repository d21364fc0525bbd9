package dev.agentpersistence.koog;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.providers.AsyncPersistenceStorageProvider;
import ai.koog.agents.snapshot.providers.filters.AgentCheckpointPredicateFilter;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.memory.AgentIdMapping;
import dev.agentpersistence.memory.WriterHeads;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Koog's persistence storage provider ({@code ai.koog.agents.snapshot.providers.PersistenceStorageProvider}, the one
 * the {@code Persistence} feature writes checkpoints to) over any agent-persistence {@link PersistenceStorageProvider}:
 * SQLite, PostgreSQL, MariaDB/MySQL, H2, Redis, S3, files, memory or your own. The store brings what it has:
 * incremental history (a checkpoint stores only the messages that are new), encryption and compression at rest,
 * metrics, retention.
 *
 * <pre>{@code
 * var agent = AIAgent.builder()
 *         // …
 *         .install(Persistence.Feature, config -> {
 *             config.setStorage(KoogCheckpointStorage.of(provider));
 *             config.setEnableAutomaticPersistence(true);
 *         })
 *         .build();
 * }</pre>
 *
 * <p>Koog's session id becomes the agent id {@code @koog/<prefix><session id>} in the namespace {@link #NAMESPACE}
 * (prefix empty unless set), so that no session id can name a pipeline run, a chat memory or another framework's agent.
 * A store written before namespaces (agent {@value #DEFAULT_AGENT_ID_PREFIX}{@code <session id>}) stays readable and
 * writable with {@link Builder#withoutNamespace()}. A Koog checkpoint round-trips exactly; the module's README
 * documents how its fields map onto ours. No checkpoint is cached: every call reads the store, so several JVMs share a
 * session (only message mappings are remembered, see {@code MessageMemo}).
 *
 * <p><b>A stale writer never appends.</b> The storage remembers per session the head its run is on: the checkpoint it
 * last wrote, or the one it served when the session had no run of this storage in progress (nothing remembered, or a
 * tombstone: the run finished). Each save must continue that head (it becomes the parent). Koog reads the latest
 * checkpoint before each save, so without this a run that waited inside a node while another run of the session resumed
 * and finished would append after the other run's tombstone; instead its save fails with
 * {@link KoogCheckpointConflictException} and writes nothing, and so does the second of two writers that take the same
 * version. After a refusal the session is forgotten: the next run starts from the session's latest checkpoint. A run
 * that failed without its tombstone leaves its head remembered, so a new run on the same storage after another writer
 * continued the session is refused once. Heads of at most {@value WriterHeads#DEFAULT_CAPACITY} sessions are
 * remembered.
 *
 * <p>Calls run on the caller's thread, unless an {@link Builder#executor executor} is given (for a backend whose calls
 * block for long, e.g. a remote database).
 */
public final class KoogCheckpointStorage extends AsyncPersistenceStorageProvider<AgentCheckpointPredicateFilter> {
    /** The namespace of Koog sessions: agent id {@code @koog/<prefix><session id>}. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("koog");

    /**
     * The prefix of the agent ids of a storage {@linkplain Builder#withoutNamespace() without a namespace}, unless
     * {@link Builder#agentIdPrefix} says otherwise: the form of versions before namespaces.
     */
    public static final String DEFAULT_AGENT_ID_PREFIX = "koog:";

    private final PersistenceStorageProvider<?> storage;
    private final AgentIdMapping ids;
    private final Executor executor;
    private final MessageMemo memo = new MessageMemo();
    private final WriterHeads heads = WriterHeads.bounded(WriterHeads.DEFAULT_CAPACITY);

    private KoogCheckpointStorage(Builder builder) {
        this.storage = builder.storage;
        this.ids = AgentIdMapping.of(
                "Koog session", "sessionId", builder.namespace, builder.agentIdPrefix, DEFAULT_AGENT_ID_PREFIX);
        this.executor = builder.executor;
    }

    /** Koog checkpoints in {@code storage}, under agent ids {@code @koog/<session id>}, on the caller's thread. */
    public static KoogCheckpointStorage of(PersistenceStorageProvider<?> storage) {
        return builder(storage).build();
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(storage);
    }

    /**
     * The agent id the checkpoints of a Koog session are stored under.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when the session id is not valid, too long for the
     *     namespace, or (without a namespace) starts with a prefix reserved for namespaces
     */
    public String agentId(String sessionId) {
        return ids.agentId(sessionId);
    }

    /** The store the checkpoints go to. */
    public PersistenceStorageProvider<?> storage() {
        return storage;
    }

    @Override
    public CompletableFuture<List<AgentCheckpointData>> getCheckpointsAsync(
            String sessionId, AgentCheckpointPredicateFilter filter) {
        return call(() -> {
            var matching = new ArrayList<AgentCheckpointData>();
            List<AgentCheckpoint> records = storage.getCheckpoints(agentId(sessionId));
            served(sessionId, records);
            for (AgentCheckpoint record : records) {
                AgentCheckpointData data = KoogCheckpoints.fromRecord(record, memo);
                if (filter == null || filter.check(data)) {
                    matching.add(data);
                }
            }
            return matching;
        });
    }

    @Override
    public CompletableFuture<Boolean> saveCheckpointAsync(String sessionId, AgentCheckpointData checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        return call(() -> {
            AgentCheckpoint record = KoogCheckpoints.toRecord(agentId(sessionId), sessionId, checkpoint, memo);
            var head = heads.get(sessionId);
            var latest = storage.getLatestCheckpoint(record.agentId());
            long version = record.version();
            boolean retry = latest.isPresent()
                    && latest.get().checkpointId().equals(record.checkpointId())
                    && latest.get().version() == version;
            if (head.isPresent() && !head.get().isStill(latest) && !retry) {
                heads.forget(sessionId);
                throw KoogCheckpointConflictException.superseded(
                        sessionId,
                        checkpoint.getCheckpointId(),
                        version,
                        head.get().toString(),
                        latest.map(c -> "'" + c.checkpointId() + "' (version " + c.version() + ")")
                                .orElse("deleted"),
                        latest.isPresent() && latest.get().version() >= version);
            }
            String parent = retry
                    ? latest.get().parentCheckpointId()
                    : latest.filter(c -> c.version() == version - 1)
                            .map(AgentCheckpoint::checkpointId)
                            .orElse(null);
            record = record.toBuilder().parentCheckpointId(parent).build();
            try {
                if (retry || latest.map(c -> c.version() >= version).orElse(false)) {
                    // the same checkpoint again (stored already), or a version taken: answered by the version's rule
                    storage.saveCheckpoint(record.agentId(), record);
                } else {
                    storage.saveCheckpointAfter(record.agentId(), latest, record);
                }
            } catch (CheckpointConflictException e) {
                heads.forget(sessionId);
                throw new KoogCheckpointConflictException(
                        sessionId, checkpoint.getCheckpointId(), checkpoint.getVersion(), e);
            }
            heads.remember(sessionId, record);
            return Boolean.TRUE;
        });
    }

    @Override
    public CompletableFuture<AgentCheckpointData> getLatestCheckpointAsync(
            String sessionId, AgentCheckpointPredicateFilter filter) {
        return call(() -> {
            if (filter == null) {
                var latest = storage.getLatestCheckpoint(agentId(sessionId));
                latest.ifPresent(record -> heads.rememberUnlessRunning(sessionId, record));
                return latest.map(record -> KoogCheckpoints.fromRecord(record, memo))
                        .orElse(null);
            }
            List<AgentCheckpoint> records = storage.getCheckpoints(agentId(sessionId));
            served(sessionId, records);
            for (int i = records.size() - 1; i >= 0; i--) {
                AgentCheckpointData data = KoogCheckpoints.fromRecord(records.get(i), memo);
                if (filter.check(data)) {
                    return data;
                }
            }
            return null;
        });
    }

    /**
     * Deletes every checkpoint of a Koog session (Koog's interface has no delete).
     *
     * @return how many checkpoints were deleted
     */
    public int deleteSession(String sessionId) {
        heads.forget(sessionId);
        return storage.deleteCheckpoints(agentId(sessionId));
    }

    /** Remembers the newest of {@code records} as the session's head unless a run of this storage is on one. */
    private void served(String sessionId, List<AgentCheckpoint> records) {
        if (!records.isEmpty()) {
            heads.rememberUnlessRunning(sessionId, records.get(records.size() - 1));
        }
    }

    private <T> CompletableFuture<T> call(Supplier<T> work) {
        if (executor != null) {
            return CompletableFuture.supplyAsync(work, executor);
        }
        try {
            return CompletableFuture.completedFuture(work.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public String toString() {
        return "KoogCheckpointStorage[" + storage
                + ids.namespace().map(namespace -> ", namespace=" + namespace).orElse("")
                + ", agentIdPrefix=" + ids.prefix() + "]";
    }

    /** Options of a {@link KoogCheckpointStorage}. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> storage;
        private String agentIdPrefix;
        private AgentNamespace namespace = NAMESPACE;
        private Executor executor;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
        }

        /**
         * The prefix put before a session id to form its local id in the namespace (or, without a namespace, its agent
         * id); may be empty. Default: empty, and {@value #DEFAULT_AGENT_ID_PREFIX} without a namespace.
         */
        public Builder agentIdPrefix(String prefix) {
            this.agentIdPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /** Stores sessions in {@code namespace} instead of {@link #NAMESPACE}. */
        public Builder namespace(AgentNamespace namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /**
         * Stores sessions as versions before namespaces did, agent id {@code prefix + sessionId} (prefix
         * {@value #DEFAULT_AGENT_ID_PREFIX} unless set), to keep reading and writing a store they wrote. Session agent
         * ids reserved for namespaces (starting with {@code @}) are then refused.
         */
        public Builder withoutNamespace() {
            this.namespace = null;
            return this;
        }

        /** Runs the store's calls on this executor instead of the caller's thread. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The storage. */
        public KoogCheckpointStorage build() {
            return new KoogCheckpointStorage(this);
        }
    }
}
