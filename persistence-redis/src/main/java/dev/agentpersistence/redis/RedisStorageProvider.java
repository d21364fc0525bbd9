package dev.agentpersistence.redis;

import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.redis.internal.RedisClients;
import dev.agentpersistence.redis.internal.RedisErrors;
import dev.agentpersistence.redis.internal.RedisStorageBackend;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.util.Objects;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Stores checkpoints in Redis, standalone or Redis Cluster, through Jedis. The storage shell ({@link StorageShell})
 * over {@code RedisStorageBackend}: it reads every stored form and writes the one its {@link StorageSettings} choose
 * (by default those of discovery: checksums, compression from 4 KiB, incremental history in two hashes in the agent's
 * slot).
 *
 * <p>Each agent's keys share one hash tag, so an agent lives in one slot and every save is a single Lua script:
 * conflict detection and all index updates happen in one atomic step. Filters run on the server against sorted-set
 * indexes and small per-checkpoint attribute records; only matching bodies travel. The layout is described in the
 * module's {@code README.md}. With a time to live ({@link RedisStorageConfig#ttl()}) an agent's keys expire that long
 * after its last save.
 *
 * <p>When Redis cannot be reached, calls throw {@link dev.agentpersistence.StorageUnavailableException} naming the
 * endpoint (password hidden) with the Jedis exception as cause; the same instance works again once Redis is back.
 * Thread-safe.
 */
public final class RedisStorageProvider extends StorageShell {

    private RedisStorageProvider(RedisStorageBackend backend, StorageSettings settings, Clock clock) {
        super(backend, settings, clock);
    }

    /** A provider connecting as {@code config} says, with the default settings. */
    public static RedisStorageProvider create(RedisStorageConfig config) {
        return builder().config(config).build();
    }

    /** A builder; without {@link Builder#client} the provider opens (and closes) its own connections. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link RedisStorageProvider}s. */
    public static final class Builder {
        private RedisStorageConfig config = RedisStorageConfig.ofDefaults();
        private StorageSettings settings = StorageSettings.ofDefaults();
        private UnifiedJedis client;
        private Boolean clusterMode;
        private String endpoint;
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /** Connection, key and TTL settings; with {@link #client} only the key prefix and TTL are used. */
        public Builder config(RedisStorageConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * What is written: layers, maximum size, incremental history (default {@link StorageSettings#ofDefaults()}).
         */
        public Builder settings(StorageSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
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

        /** The clock for expiry and history segment write times (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** @throws dev.agentpersistence.StorageUnavailableException when a cluster's topology cannot be read */
        @SuppressWarnings("deprecation")
        public RedisStorageProvider build() {
            if (client != null) {
                boolean cluster = clusterMode != null
                        ? clusterMode
                        : client instanceof RedisClusterClient || client instanceof JedisCluster;
                String where = endpoint != null
                        ? ProviderConfig.redact(endpoint)
                        : cluster ? "an application-supplied cluster client" : "an application-supplied client";
                return provider(
                        client,
                        false,
                        cluster,
                        new RedisErrors("Redis at " + where, Redactor.forCredentialsIn(endpoint)));
            }
            var errors = new RedisErrors("Redis at " + config.endpoint(), Redactor.forCredentialsIn(config.uri()));
            UnifiedJedis own;
            try {
                own = RedisClients.create(config);
            } catch (JedisException e) {
                throw errors.translate(e, "connecting");
            }
            return provider(own, true, clusterMode != null ? clusterMode : config.isCluster(), errors);
        }

        private RedisStorageProvider provider(UnifiedJedis jedis, boolean owned, boolean cluster, RedisErrors errors) {
            var effective = config.ttl().isPresent()
                    ? StorageSettings.from(settings).ttl(config.ttl().get()).build()
                    : settings;
            var backend = new RedisStorageBackend(
                    jedis,
                    owned,
                    cluster,
                    config.keyPrefix(),
                    config.ttl().orElse(null),
                    clock,
                    effective.maxCheckpointSize(),
                    errors);
            return new RedisStorageProvider(backend, effective, clock);
        }
    }
}
