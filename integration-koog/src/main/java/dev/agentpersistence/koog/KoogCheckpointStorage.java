package dev.agentpersistence.koog;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.providers.AsyncPersistenceStorageProvider;
import ai.koog.agents.snapshot.providers.filters.AgentCheckpointPredicateFilter;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.PersistenceStorageProvider;
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
 * <p>Koog's session id becomes the agent id {@code koog:<session id>} (prefix configurable). A Koog checkpoint
 * round-trips exactly; the module's README documents how its fields map onto ours. No checkpoint is cached: every call
 * reads the store, so several JVMs share a session (only message mappings are remembered, see {@code MessageMemo}). Two
 * writers that take the same version of one session do not fork it: the second save fails with
 * {@link KoogCheckpointConflictException} and writes nothing.
 *
 * <p>Calls run on the caller's thread, unless an {@link Builder#executor executor} is given (for a backend whose calls
 * block for long, e.g. a remote database).
 */
public final class KoogCheckpointStorage extends AsyncPersistenceStorageProvider<AgentCheckpointPredicateFilter> {
    /** The default prefix of the agent ids Koog sessions are stored under. */
    public static final String DEFAULT_AGENT_ID_PREFIX = "koog:";

    private final PersistenceStorageProvider<?> storage;
    private final String agentIdPrefix;
    private final Executor executor;
    private final MessageMemo memo = new MessageMemo();

    private KoogCheckpointStorage(Builder builder) {
        this.storage = builder.storage;
        this.agentIdPrefix = builder.agentIdPrefix;
        this.executor = builder.executor;
    }

    /** Koog checkpoints in {@code storage}, under agent ids {@code koog:<session id>}, on the caller's thread. */
    public static KoogCheckpointStorage of(PersistenceStorageProvider<?> storage) {
        return builder(storage).build();
    }

    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(storage);
    }

    /** The agent id the checkpoints of a Koog session are stored under. */
    public String agentId(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        String agentId = agentIdPrefix + sessionId;
        Identifiers.requireValid(agentId, "agentId");
        return agentId;
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
            for (AgentCheckpoint record : storage.getCheckpoints(agentId(sessionId))) {
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
            try {
                storage.saveCheckpoint(record.agentId(), record);
            } catch (CheckpointConflictException e) {
                throw new KoogCheckpointConflictException(
                        sessionId, checkpoint.getCheckpointId(), checkpoint.getVersion(), e);
            }
            return Boolean.TRUE;
        });
    }

    @Override
    public CompletableFuture<AgentCheckpointData> getLatestCheckpointAsync(
            String sessionId, AgentCheckpointPredicateFilter filter) {
        return call(() -> {
            if (filter == null) {
                return storage.getLatestCheckpoint(agentId(sessionId))
                        .map(record -> KoogCheckpoints.fromRecord(record, memo))
                        .orElse(null);
            }
            List<AgentCheckpoint> records = storage.getCheckpoints(agentId(sessionId));
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
        return storage.deleteCheckpoints(agentId(sessionId));
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
        return "KoogCheckpointStorage[" + storage + ", agentIdPrefix=" + agentIdPrefix + "]";
    }

    /** Options of a {@link KoogCheckpointStorage}. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> storage;
        private String agentIdPrefix = DEFAULT_AGENT_ID_PREFIX;
        private Executor executor;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
        }

        /** The prefix of the agent ids sessions are stored under; may be empty. Default {@code koog:}. */
        public Builder agentIdPrefix(String prefix) {
            this.agentIdPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /** Runs the store's calls on this executor instead of the caller's thread. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        public KoogCheckpointStorage build() {
            return new KoogCheckpointStorage(this);
        }
    }
}
