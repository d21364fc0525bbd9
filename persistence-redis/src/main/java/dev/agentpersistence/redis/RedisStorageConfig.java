package dev.agentpersistence.redis;

import dev.agentpersistence.spi.ProviderConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable settings of a {@link RedisStorageProvider}: where Redis is, how keys are named, how long
 * they live and how connections are pooled. Build one with {@link #custom()}, start from
 * {@link #ofDefaults()}, or read the {@code agent.persistence.redis.*} keys with {@link #of(ProviderConfig)}.
 *
 * <p>With {@link #clusterNodes()} set the provider talks to a Redis Cluster seeded by those nodes;
 * {@link #uri()} then only supplies the user, password and TLS ({@code rediss://}).
 */
public final class RedisStorageConfig {
    /** {@code redis://[user:password@]host:port[/db]}, or {@code rediss://…} for TLS. */
    public static final String URI_KEY = "agent.persistence.redis.uri";
    /** Comma-separated {@code host:port} seed nodes; when set the provider runs in cluster mode. */
    public static final String CLUSTER_NODES_KEY = "agent.persistence.redis.cluster-nodes";
    /** Prefix of every key the provider writes. */
    public static final String KEY_PREFIX_KEY = "agent.persistence.redis.key-prefix";
    /** Optional lifetime of an agent's keys, refreshed on each save ({@code 7d}, {@code 12h}, {@code PT30M}). */
    public static final String TTL_KEY = "agent.persistence.redis.ttl";
    /** Most connections open at once (per node in cluster mode). */
    public static final String POOL_MAX_TOTAL_KEY = "agent.persistence.redis.pool.max-total";
    /** Most idle connections kept. */
    public static final String POOL_MAX_IDLE_KEY = "agent.persistence.redis.pool.max-idle";
    /** Fewest idle connections kept. */
    public static final String POOL_MIN_IDLE_KEY = "agent.persistence.redis.pool.min-idle";
    /** How long a call waits for a free connection. */
    public static final String POOL_MAX_WAIT_KEY = "agent.persistence.redis.pool.max-wait";
    /** Whether a pooled connection is checked with PING before use (so a restarted server costs no failed call). */
    public static final String POOL_TEST_ON_BORROW_KEY = "agent.persistence.redis.pool.test-on-borrow";
    /** Time allowed to open a connection. */
    public static final String CONNECT_TIMEOUT_KEY = "agent.persistence.redis.connect-timeout";
    /** Time allowed for one reply. */
    public static final String SOCKET_TIMEOUT_KEY = "agent.persistence.redis.socket-timeout";
    /** Attempts of one command in cluster mode (redirections and failovers). */
    public static final String CLUSTER_MAX_ATTEMPTS_KEY = "agent.persistence.redis.cluster.max-attempts";

    /** The default {@link #uri()}. */
    public static final String DEFAULT_URI = "redis://localhost:6379";
    /** The default {@link #keyPrefix()}. */
    public static final String DEFAULT_KEY_PREFIX = "agent-persistence:";

    private static final RedisStorageConfig DEFAULTS = custom().build();

    private final String uri;
    private final List<String> clusterNodes;
    private final String keyPrefix;
    private final Duration ttl;
    private final int poolMaxTotal;
    private final int poolMaxIdle;
    private final int poolMinIdle;
    private final Duration poolMaxWait;
    private final boolean poolTestOnBorrow;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private final int clusterMaxAttempts;

    private RedisStorageConfig(Builder b) {
        this.uri = b.uri;
        this.clusterNodes = List.copyOf(b.clusterNodes);
        this.keyPrefix = b.keyPrefix;
        this.ttl = b.ttl;
        this.poolMaxTotal = b.poolMaxTotal;
        this.poolMaxIdle = b.poolMaxIdle;
        this.poolMinIdle = b.poolMinIdle;
        this.poolMaxWait = b.poolMaxWait;
        this.poolTestOnBorrow = b.poolTestOnBorrow;
        this.connectTimeout = b.connectTimeout;
        this.socketTimeout = b.socketTimeout;
        this.clusterMaxAttempts = b.clusterMaxAttempts;
    }

    /** The defaults: {@value #DEFAULT_URI}, prefix {@value #DEFAULT_KEY_PREFIX}, no TTL. */
    public static RedisStorageConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code config}. */
    public static Builder from(RedisStorageConfig config) {
        return new Builder(Objects.requireNonNull(config, "config"));
    }

    /**
     * Reads the {@code agent.persistence.redis.*} keys; unset keys keep their defaults.
     *
     * @throws dev.agentpersistence.PersistenceException when a value cannot be parsed
     * @throws IllegalArgumentException when a value is out of range
     */
    public static RedisStorageConfig of(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var b = custom();
        config.get(URI_KEY).map(String::trim).filter(s -> !s.isEmpty()).ifPresent(b::uri);
        config.get(CLUSTER_NODES_KEY).ifPresent(nodes -> b.clusterNodes(splitNodes(nodes)));
        config.get(KEY_PREFIX_KEY).ifPresent(b::keyPrefix);
        config.getDuration(TTL_KEY).ifPresent(b::ttl);
        b.poolMaxTotal(config.getInt(POOL_MAX_TOTAL_KEY, b.poolMaxTotal));
        b.poolMaxIdle(config.getInt(POOL_MAX_IDLE_KEY, b.poolMaxIdle));
        b.poolMinIdle(config.getInt(POOL_MIN_IDLE_KEY, b.poolMinIdle));
        config.getDuration(POOL_MAX_WAIT_KEY).ifPresent(b::poolMaxWait);
        b.poolTestOnBorrow(config.getBoolean(POOL_TEST_ON_BORROW_KEY, b.poolTestOnBorrow));
        config.getDuration(CONNECT_TIMEOUT_KEY).ifPresent(b::connectTimeout);
        config.getDuration(SOCKET_TIMEOUT_KEY).ifPresent(b::socketTimeout);
        b.clusterMaxAttempts(config.getInt(CLUSTER_MAX_ATTEMPTS_KEY, b.clusterMaxAttempts));
        return b.build();
    }

    private static List<String> splitNodes(String nodes) {
        var list = new ArrayList<String>();
        for (String node : nodes.split(",")) {
            if (!node.isBlank()) {
                list.add(node.trim());
            }
        }
        return list;
    }

    /** The server (standalone) or the credentials and TLS choice (cluster). */
    public String uri() {
        return uri;
    }

    /** {@code host:port} seed nodes of a cluster; empty for a standalone server. */
    public List<String> clusterNodes() {
        return clusterNodes;
    }

    /** Whether {@link #clusterNodes()} selects cluster mode. */
    public boolean isCluster() {
        return !clusterNodes.isEmpty();
    }

    /** Prefix of every key; never contains <code>{</code> or <code>}</code>, which would break the hash tags. */
    public String keyPrefix() {
        return keyPrefix;
    }

    /** The lifetime of an agent's keys, refreshed on each save; empty: keys never expire. */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }

    /** Most connections open at once (per node in cluster mode). */
    public int poolMaxTotal() {
        return poolMaxTotal;
    }

    /** Most idle connections kept. */
    public int poolMaxIdle() {
        return poolMaxIdle;
    }

    /** Fewest idle connections kept. */
    public int poolMinIdle() {
        return poolMinIdle;
    }

    /** How long a call waits for a free connection. */
    public Duration poolMaxWait() {
        return poolMaxWait;
    }

    /** Whether pooled connections are checked with PING before use. */
    public boolean poolTestOnBorrow() {
        return poolTestOnBorrow;
    }

    /** Time allowed to open a connection. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Time allowed for one reply. */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /** Attempts of one command in cluster mode. */
    public int clusterMaxAttempts() {
        return clusterMaxAttempts;
    }

    /** Where the provider connects, password hidden, for messages. */
    public String endpoint() {
        return isCluster() ? "cluster " + String.join(",", clusterNodes) : ProviderConfig.redact(uri);
    }

    @Override
    public String toString() {
        return "RedisStorageConfig{endpoint=" + endpoint() + ", keyPrefix='" + keyPrefix + "', ttl=" + ttl
                + ", pool=" + poolMinIdle + ".." + poolMaxIdle + "/" + poolMaxTotal + " wait " + poolMaxWait
                + (poolTestOnBorrow ? " tested" : "") + ", connectTimeout=" + connectTimeout
                + ", socketTimeout=" + socketTimeout + ", clusterMaxAttempts=" + clusterMaxAttempts + '}';
    }

    /** Builds {@link RedisStorageConfig}s; every setter validates its argument. */
    public static final class Builder {
        private String uri = DEFAULT_URI;
        private List<String> clusterNodes = List.of();
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration ttl;
        private int poolMaxTotal = 16;
        private int poolMaxIdle = 8;
        private int poolMinIdle = 0;
        private Duration poolMaxWait = Duration.ofSeconds(2);
        private boolean poolTestOnBorrow = true;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration socketTimeout = Duration.ofSeconds(5);
        private int clusterMaxAttempts = 5;

        private Builder() {
        }

        private Builder(RedisStorageConfig c) {
            uri = c.uri;
            clusterNodes = c.clusterNodes;
            keyPrefix = c.keyPrefix;
            ttl = c.ttl;
            poolMaxTotal = c.poolMaxTotal;
            poolMaxIdle = c.poolMaxIdle;
            poolMinIdle = c.poolMinIdle;
            poolMaxWait = c.poolMaxWait;
            poolTestOnBorrow = c.poolTestOnBorrow;
            connectTimeout = c.connectTimeout;
            socketTimeout = c.socketTimeout;
            clusterMaxAttempts = c.clusterMaxAttempts;
        }

        /** {@code redis://[user:password@]host[:port][/db]} or {@code rediss://…} (TLS). */
        public Builder uri(String uri) {
            Objects.requireNonNull(uri, "uri");
            URI parsed;
            try {
                parsed = new URI(uri.trim());
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("Not a Redis URI: " + ProviderConfig.redact(uri), e);
            }
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss")) {
                throw new IllegalArgumentException("A Redis URI starts with redis:// or rediss:// but was "
                        + ProviderConfig.redact(uri));
            }
            if (parsed.getHost() == null) {
                throw new IllegalArgumentException("The Redis URI names no host: " + ProviderConfig.redact(uri));
            }
            String path = parsed.getPath();
            if (path != null && path.length() > 1 && !path.substring(1).matches("\\d{1,5}")) {
                throw new IllegalArgumentException("The path of a Redis URI is a database index such as /0 but was '"
                        + path + "' in " + ProviderConfig.redact(uri));
            }
            this.uri = uri.trim();
            return this;
        }

        /** Seed nodes of a Redis Cluster as {@code host:port}; an empty list selects a standalone server. */
        public Builder clusterNodes(List<String> nodes) {
            Objects.requireNonNull(nodes, "nodes");
            for (String node : nodes) {
                requireHostAndPort(node);
            }
            this.clusterNodes = List.copyOf(nodes);
            return this;
        }

        /** Prefix of every key: not empty, no control characters, no <code>{</code> or <code>}</code>. */
        public Builder keyPrefix(String keyPrefix) {
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            if (keyPrefix.isEmpty()) {
                throw new IllegalArgumentException("keyPrefix must not be empty");
            }
            for (int i = 0; i < keyPrefix.length(); i++) {
                char c = keyPrefix.charAt(i);
                if (c == '{' || c == '}' || Character.isISOControl(c)) {
                    throw new IllegalArgumentException("keyPrefix must not contain '{', '}' or control characters"
                            + " (the provider uses {…} as the cluster hash tag) but was '" + keyPrefix + "'");
                }
            }
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** Lifetime of an agent's keys, refreshed on each save; at least one millisecond. */
        public Builder ttl(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.toMillis() < 1) {
                throw new IllegalArgumentException("ttl must be at least 1ms but was " + ttl);
            }
            this.ttl = ttl;
            return this;
        }

        /** Keys never expire (the default). */
        public Builder noTtl() {
            this.ttl = null;
            return this;
        }

        /** Most connections open at once (per node in cluster mode); at least 1. */
        public Builder poolMaxTotal(int poolMaxTotal) {
            this.poolMaxTotal = atLeast(poolMaxTotal, 1, "poolMaxTotal");
            return this;
        }

        /** Most idle connections kept; at least 0. */
        public Builder poolMaxIdle(int poolMaxIdle) {
            this.poolMaxIdle = atLeast(poolMaxIdle, 0, "poolMaxIdle");
            return this;
        }

        /** Fewest idle connections kept; at least 0. */
        public Builder poolMinIdle(int poolMinIdle) {
            this.poolMinIdle = atLeast(poolMinIdle, 0, "poolMinIdle");
            return this;
        }

        /** How long a call waits for a free connection; positive. */
        public Builder poolMaxWait(Duration poolMaxWait) {
            this.poolMaxWait = positive(poolMaxWait, "poolMaxWait");
            return this;
        }

        /** Whether pooled connections are checked with PING before use (default {@code true}). */
        public Builder poolTestOnBorrow(boolean poolTestOnBorrow) {
            this.poolTestOnBorrow = poolTestOnBorrow;
            return this;
        }

        /** Time allowed to open a connection; positive, at most {@link Integer#MAX_VALUE} ms. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /** Time allowed for one reply; positive, at most {@link Integer#MAX_VALUE} ms. */
        public Builder socketTimeout(Duration socketTimeout) {
            this.socketTimeout = positive(socketTimeout, "socketTimeout");
            return this;
        }

        /** Attempts of one command in cluster mode; at least 1. */
        public Builder clusterMaxAttempts(int clusterMaxAttempts) {
            this.clusterMaxAttempts = atLeast(clusterMaxAttempts, 1, "clusterMaxAttempts");
            return this;
        }

        /**
         * @throws IllegalArgumentException when {@code poolMinIdle > poolMaxIdle} or {@code poolMaxIdle > poolMaxTotal}
         */
        public RedisStorageConfig build() {
            if (poolMinIdle > poolMaxIdle) {
                throw new IllegalArgumentException("poolMinIdle (" + poolMinIdle + ") exceeds poolMaxIdle (" + poolMaxIdle + ")");
            }
            if (poolMaxIdle > poolMaxTotal) {
                throw new IllegalArgumentException("poolMaxIdle (" + poolMaxIdle + ") exceeds poolMaxTotal (" + poolMaxTotal + ")");
            }
            return new RedisStorageConfig(this);
        }

        private static int atLeast(int value, int min, String name) {
            if (value < min) {
                throw new IllegalArgumentException(name + " must be >= " + min + " but was " + value);
            }
            return value;
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero() || value.toMillis() < 1 || value.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + " must be between 1ms and " + Integer.MAX_VALUE
                        + "ms but was " + value);
            }
            return value;
        }

        private static void requireHostAndPort(String node) {
            Objects.requireNonNull(node, "cluster node");
            int colon = node.lastIndexOf(':');
            if (colon <= 0 || colon == node.length() - 1) {
                throw new IllegalArgumentException("A cluster node is written host:port but was '" + node + "'");
            }
            int port;
            try {
                port = Integer.parseInt(node.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("A cluster node is written host:port but was '" + node + "'", e);
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("Port out of range in cluster node '" + node + "'");
            }
        }
    }
}
