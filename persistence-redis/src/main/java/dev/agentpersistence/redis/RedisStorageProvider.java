package dev.agentpersistence.redis;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.redis.internal.CheckpointStore;
import dev.agentpersistence.redis.internal.RedisClients;
import dev.agentpersistence.redis.internal.RedisErrors;
import dev.agentpersistence.redis.internal.RedisKeys;
import dev.agentpersistence.redis.internal.SegmentStore;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.spi.StorageChecks;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Stores checkpoints in Redis, standalone or Redis Cluster, through Jedis.
 *
 * <p>Each agent's keys share one hash tag, so an agent lives in one slot and every save is a single
 * Lua script: conflict checks and all index updates happen in one atomic step. Filters run on the
 * server against sorted-set indexes and small per-checkpoint attribute records; only matching bodies
 * travel. The layout is described in the module's {@code README.md}.
 *
 * <p>When Redis cannot be reached, calls throw {@link dev.agentpersistence.StorageUnavailableException}
 * naming the endpoint (password hidden) with the Jedis exception as cause; the same instance works
 * again once Redis is back. Thread-safe.
 *
 * <p>Also a {@link HistorySegmentStore} (two hashes in the agent's slot, expiring with its keys):
 * {@link #withIncrementalHistory()} (and {@code PersistenceStorageProviders.load}) keep long message
 * histories once instead of in every checkpoint.
 */
public final class RedisStorageProvider implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    private final UnifiedJedis client;
    private final boolean ownsClient;
    private final CheckpointStore store;
    private final SegmentStore segments;
    private final CheckpointCodec codec;
    private final Clock clock;
    private final RedisErrors errors;
    private final String description;
    private volatile boolean closed;

    private RedisStorageProvider(UnifiedJedis client, boolean ownsClient, boolean cluster, RedisStorageConfig config,
                                 CheckpointCodec codec, Clock clock, RedisErrors errors) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.errors = errors;
        this.codec = codec;
        this.clock = clock;
        var keys = new RedisKeys(config.keyPrefix());
        this.store = new CheckpointStore(client, keys, cluster, codec, config.ttl().orElse(null), errors.endpoint());
        this.segments = new SegmentStore(client, keys, config.ttl().orElse(null));
        this.description = "RedisStorageProvider[" + errors.endpoint() + ", keyPrefix '" + config.keyPrefix() + "'"
                + (cluster ? ", cluster" : "") + config.ttl().map(ttl -> ", ttl " + ttl).orElse("") + "]";
    }

    /** A provider connecting as {@code config} says, with the JSON codec. */
    public static RedisStorageProvider create(RedisStorageConfig config) {
        return builder().config(config).build();
    }

    /** A builder; without {@link Builder#client} the provider opens (and closes) its own connections. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        run("saveCheckpoint of agent '" + agentId + "'", () -> {
            store.save(agentId, checkpoint);
            return null;
        });
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        return run("getCheckpoints of agent '" + agentId + "'", () -> store.query(agentId, filter, false));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        List<AgentCheckpoint> latest = run("getLatestCheckpoint of agent '" + agentId + "'",
                () -> store.query(agentId, filter, true));
        return latest.isEmpty() ? Optional.empty() : Optional.of(latest.get(latest.size() - 1));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return run("getCheckpoint of agent '" + agentId + "'", () -> store.get(agentId, checkpointId));
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        StorageChecks.requireAgentId(agentId);
        return run("deleteCheckpoints of agent '" + agentId + "'", () -> store.delete(agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        StorageChecks.requireAgentId(agentId);
        return run("deleteCheckpointsBefore of agent '" + agentId + "'", () -> store.deleteBefore(agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return run("listAgents", store::listAgents);
    }

    /**
     * This provider with incremental message histories ({@link IncrementalHistoryStorageProvider}), as
     * {@code PersistenceStorageProviders.load} hands it out; segments are written with this provider's codec.
     */
    public IncrementalHistoryStorageProvider withIncrementalHistory() {
        return IncrementalHistoryStorageProvider.builder(this).segmentCodec(codec).clock(clock).build();
    }

    /** One script: create if absent, record the write time, align the expiry with the agent's keys. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        run("putSegment of agent '" + agentId + "'", () -> {
            segments.put(agentId, segmentId, content, clock.instant());
            return null;
        });
    }

    /** One {@code HMGET} for all requested segments. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        return run("getSegments of agent '" + agentId + "'", () -> segments.get(agentId, segmentIds));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        StorageChecks.requireAgentId(agentId);
        return run("listSegments of agent '" + agentId + "'", () -> segments.list(agentId));
    }

    /** One script that checks each segment's write time against the cutoff before deleting it. */
    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        return run("deleteSegments of agent '" + agentId + "'", () -> segments.delete(agentId, segmentIds, writtenBefore));
    }

    @Override
    public List<String> listSegmentAgents() {
        return run("listSegmentAgents", segments::agents);
    }

    /** Closes the connections the provider opened; a client handed to the builder stays open. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return description;
    }

    private <T> T run(String operation, Supplier<T> action) {
        StorageChecks.requireOpen(closed, "RedisStorageProvider");
        try {
            return action.get();
        } catch (JedisException e) {
            throw errors.translate(e, operation);
        }
    }

    /** Builds {@link RedisStorageProvider}s. */
    public static final class Builder {
        private RedisStorageConfig config = RedisStorageConfig.ofDefaults();
        private CheckpointCodec codec = CheckpointCodec.json();
        private UnifiedJedis client;
        private Boolean clusterMode;
        private String endpoint;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** Connection, key and TTL settings; with {@link #client} only the key prefix and TTL are used. */
        public Builder config(RedisStorageConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** How checkpoints become stored documents (default {@link CheckpointCodec#json()}). */
        public Builder codec(CheckpointCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /**
         * Uses a client the application already has ({@code RedisClient}, {@code RedisClusterClient},
         * {@code JedisCluster}, …) instead of opening one. The provider does not close it.
         */
        public Builder client(UnifiedJedis client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * Whether {@link #client} talks to a Redis Cluster. By default a {@code RedisClusterClient} or
         * {@code JedisCluster} is taken as cluster, any other client as standalone.
         */
        public Builder clusterMode(boolean clusterMode) {
            this.clusterMode = clusterMode;
            return this;
        }

        /** How messages name the endpoint of a {@link #client} (a password in it is hidden). */
        public Builder endpoint(String endpoint) {
            this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
            return this;
        }

        /** The clock for history segment write times (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @throws dev.agentpersistence.StorageUnavailableException when a cluster's topology cannot be read
         */
        @SuppressWarnings("deprecation")
        public RedisStorageProvider build() {
            if (client != null) {
                boolean cluster = clusterMode != null ? clusterMode
                        : client instanceof RedisClusterClient || client instanceof JedisCluster;
                String where = endpoint != null ? ProviderConfig.redact(endpoint)
                        : cluster ? "an application-supplied cluster client" : "an application-supplied client";
                return new RedisStorageProvider(client, false, cluster, config, codec, clock,
                        new RedisErrors("Redis at " + where));
            }
            var errors = new RedisErrors("Redis at " + config.endpoint());
            UnifiedJedis own;
            try {
                own = RedisClients.create(config);
            } catch (JedisException e) {
                throw errors.translate(e, "connecting");
            }
            return new RedisStorageProvider(own, true, clusterMode != null ? clusterMode : config.isCluster(), config,
                    codec, clock, errors);
        }
    }
}
