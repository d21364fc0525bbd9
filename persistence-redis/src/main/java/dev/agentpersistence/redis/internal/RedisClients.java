package dev.agentpersistence.redis.internal;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.redis.RedisStorageConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashSet;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.util.JedisURIHelper;

/** Creates the pooled Jedis client a {@link RedisStorageConfig} describes. */
public final class RedisClients {
    private RedisClients() {}

    /**
     * A {@link RedisClient} for a standalone server or a {@link RedisClusterClient} when cluster nodes are configured.
     * A cluster client reads the topology here, so this fails when no seed answers.
     */
    public static UnifiedJedis create(RedisStorageConfig config) {
        URI uri = parse(config);
        var clientConfig = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) config.connectTimeout().toMillis())
                .socketTimeoutMillis((int) config.socketTimeout().toMillis())
                .user(JedisURIHelper.getUser(uri))
                .password(JedisURIHelper.getPassword(uri))
                .clientName("agent-persistence");
        if (JedisURIHelper.isRedisSSLScheme(uri)) {
            // TLS with the JVM's trust store and full certificate and host name verification; the
            // handshake is part of connecting and bounded by the connect timeout
            clientConfig
                    .ssl(true)
                    .sslSocketFactory(TlsSocketFactory.withDefaultTrust(config.connectTimeout()))
                    .sslParameters(TlsSocketFactory.verifyingHostNames());
        }
        var pool = new ConnectionPoolConfig();
        pool.setMaxTotal(config.poolMaxTotal());
        pool.setMaxIdle(config.poolMaxIdle());
        pool.setMinIdle(config.poolMinIdle());
        pool.setMaxWait(config.poolMaxWait());
        pool.setTestOnBorrow(config.poolTestOnBorrow());
        if (config.isCluster()) {
            var nodes = new LinkedHashSet<HostAndPort>();
            config.clusterNodes().forEach(node -> nodes.add(HostAndPort.from(node)));
            return RedisClusterClient.builder()
                    .nodes(nodes)
                    .clientConfig(clientConfig.build())
                    .poolConfig(pool)
                    .maxAttempts(config.clusterMaxAttempts())
                    .build();
        }
        if (JedisURIHelper.hasDbIndex(uri)) {
            clientConfig.database(JedisURIHelper.getDBIndex(uri));
        }
        var standalone = clientConfig.build();
        return RedisClient.builder()
                .connectionProvider(new PooledConnectionProvider(
                        new IdleCheckedConnections(JedisURIHelper.getHostAndPort(uri), standalone), pool))
                .clientConfig(standalone)
                .build();
    }

    /** The URI; a malformed one is named redacted, without the parser's exception (its message quotes the URI). */
    private static URI parse(RedisStorageConfig config) {
        try {
            return new URI(config.uri());
        } catch (URISyntaxException e) {
            throw new StorageConfigurationException("Malformed Redis URI " + config.endpoint() + " (" + e.getReason()
                    + " at index " + e.getIndex() + ")");
        }
    }
}
