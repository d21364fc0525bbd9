package dev.agentpersistence.redis;

import dev.agentpersistence.backend.BackendContext;
import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.redis.internal.RedisClients;
import dev.agentpersistence.redis.internal.RedisErrors;
import dev.agentpersistence.redis.internal.RedisStorageBackend;
import dev.agentpersistence.storage.StorageShell;
import java.util.Objects;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Entry point of the Redis provider: checkpoints in Redis, standalone or Redis Cluster, through Jedis. Each method
 * returns the shell's builder over the Redis backend; {@code build()} gives the provider.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage =
 *         RedisStorage.builder(RedisStorageConfig.custom().uri("redis://cache:6379").build()).build();
 * }</pre>
 *
 * <p>Each agent's keys share one hash tag, so an agent lives in one slot and every save is a single Lua script:
 * conflict detection and all index updates happen in one atomic step. Filters run on the server against sorted-set
 * indexes and small per-checkpoint attribute records; only matching bodies travel. The layout is described in the
 * module's {@code README.md}. With a time to live ({@link dev.agentpersistence.storage.StorageSettings#ttl()}) an
 * agent's keys expire that long after its last save. When Redis cannot be reached, calls throw
 * {@link dev.agentpersistence.StorageUnavailableException} naming the endpoint (password hidden) with the Jedis
 * exception as cause; the same instance works again once Redis is back. Thread-safe.
 */
public final class RedisStorage {
    private RedisStorage() {}

    /**
     * A provider that opens (and closes) its own connections as {@code config} says.
     *
     * @throws dev.agentpersistence.StorageUnavailableException (from {@code build()}) when a cluster's topology cannot
     *     be read
     */
    @SuppressWarnings("deprecation")
    public static StorageShell.Builder builder(RedisStorageConfig config) {
        Objects.requireNonNull(config, "config");
        return StorageShell.builder(context -> {
            var errors = new RedisErrors("Redis at " + config.endpoint(), Redactor.forCredentialsIn(config.uri()));
            UnifiedJedis own;
            try {
                own = RedisClients.create(config);
            } catch (JedisException e) {
                throw errors.translate(e, "connecting");
            }
            return backend(context, config, own, true, config.isCluster(), errors);
        });
    }

    /**
     * A provider over a client the application already has ({@code RedisClient}, {@code RedisClusterClient},
     * {@code JedisCluster}, …), which it does not close; of {@code config} only the key prefix applies, and its
     * {@code uri}, when set, names the endpoint in messages (password hidden). A {@code RedisClusterClient} or
     * {@code JedisCluster}, or a config naming cluster nodes, is taken as a cluster.
     */
    @SuppressWarnings("deprecation")
    public static StorageShell.Builder builder(RedisStorageConfig config, UnifiedJedis client) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(client, "client");
        boolean cluster = config.isCluster() || client instanceof RedisClusterClient || client instanceof JedisCluster;
        // a config left at the default URI says nothing of where the application's client connects
        boolean named = !config.uri().equals(RedisStorageConfig.ofDefaults().uri()) || config.isCluster();
        String where = named
                ? "Redis at " + config.endpoint() + " (an application-supplied client)"
                : "Redis through an application-supplied " + (cluster ? "cluster client" : "client");
        return StorageShell.builder(context -> {
            var errors = new RedisErrors(where, Redactor.forCredentialsIn(config.uri()));
            return backend(context, config, client, false, cluster, errors);
        });
    }

    private static RedisStorageBackend backend(
            BackendContext context,
            RedisStorageConfig config,
            UnifiedJedis jedis,
            boolean owned,
            boolean cluster,
            RedisErrors errors) {
        return new RedisStorageBackend(
                jedis,
                owned,
                cluster,
                config.keyPrefix(),
                context.ttl().orElse(null),
                context.clock(),
                context.maxCheckpointSize(),
                errors);
    }
}
