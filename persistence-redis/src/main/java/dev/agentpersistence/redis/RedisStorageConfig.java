package dev.agentpersistence.redis;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
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
    public static final Setting<String> URI_SETTING = Setting.text("agent.persistence.redis.uri", "redis://localhost:6379",
            "redis://[user:password@]host:port[/db], rediss:// for TLS; in cluster mode only user, password and TLS apply.")
            .secret();
    /** Comma-separated {@code host:port} seed nodes; when set the provider runs in cluster mode. */
    public static final Setting<String> CLUSTER_NODES = Setting.text("agent.persistence.redis.cluster-nodes", null,
            "Comma-separated host:port seeds; when set, cluster mode.");
    /** Prefix of every key the provider writes. */
    public static final Setting<String> KEY_PREFIX = Setting.text("agent.persistence.redis.key-prefix",
            "agent-persistence:", "Prefix of every key; no { or }.");
    /** Optional lifetime of an agent's keys, refreshed on each save. */
    public static final Setting<Duration> TTL = Setting.duration("agent.persistence.redis.ttl", null,
            "Lifetime of every key of an agent, refreshed on each save (30d, 12h, PT30M).");
    /** Most connections open at once (per node in cluster mode). */
    public static final Setting<Integer> POOL_MAX_TOTAL = Setting.integer("agent.persistence.redis.pool.max-total", 16, 1,
            Integer.MAX_VALUE, "Most connections open at once (per node in a cluster).");
    /** Most idle connections kept. */
    public static final Setting<Integer> POOL_MAX_IDLE = Setting.integer("agent.persistence.redis.pool.max-idle", 8, 0,
            Integer.MAX_VALUE, "Most idle connections kept.");
    /** Fewest idle connections kept. */
    public static final Setting<Integer> POOL_MIN_IDLE = Setting.integer("agent.persistence.redis.pool.min-idle", 0, 0,
            Integer.MAX_VALUE, "Fewest idle connections kept.");
    /** How long a call waits for a free connection. */
    public static final Setting<Duration> POOL_MAX_WAIT = Setting.duration("agent.persistence.redis.pool.max-wait",
            Duration.ofSeconds(2), "How long a call waits for a free connection.");
    /** Whether a pooled connection is checked with PING before use. */
    public static final Setting<Boolean> POOL_TEST_ON_BORROW = Setting.bool("agent.persistence.redis.pool.test-on-borrow",
            true, "PING a pooled connection before use, so a restarted server costs no failed call.");
    /** Time allowed to open a connection. */
    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.duration("agent.persistence.redis.connect-timeout",
            Duration.ofSeconds(2), "Time allowed to open a connection.");
    /** Time allowed for one reply. */
    public static final Setting<Duration> SOCKET_TIMEOUT = Setting.duration("agent.persistence.redis.socket-timeout",
            Duration.ofSeconds(5), "Time allowed for one reply.");
    /** Attempts of one command in cluster mode (redirections and failovers). */
    public static final Setting<Integer> CLUSTER_MAX_ATTEMPTS = Setting.integer("agent.persistence.redis.cluster.max-attempts",
            5, 1, Integer.MAX_VALUE, "Attempts per command in a cluster (redirections, failover).");
    /** Every Redis setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(URI_SETTING, CLUSTER_NODES, KEY_PREFIX, TTL, POOL_MAX_TOTAL,
            POOL_MAX_IDLE, POOL_MIN_IDLE, POOL_MAX_WAIT, POOL_TEST_ON_BORROW, CONNECT_TIMEOUT, SOCKET_TIMEOUT,
            CLUSTER_MAX_ATTEMPTS);

    /** The key of {@link #URI_SETTING}. */
    public static final String URI_KEY = URI_SETTING.key();
    /** The key of {@link #CLUSTER_NODES}. */
    public static final String CLUSTER_NODES_KEY = CLUSTER_NODES.key();
    /** The key of {@link #KEY_PREFIX}. */
    public static final String KEY_PREFIX_KEY = KEY_PREFIX.key();
    /** The key of {@link #TTL}. */
    public static final String TTL_KEY = TTL.key();
    /** The key of {@link #POOL_MAX_TOTAL}. */
    public static final String POOL_MAX_TOTAL_KEY = POOL_MAX_TOTAL.key();
    /** The key of {@link #POOL_MAX_IDLE}. */
    public static final String POOL_MAX_IDLE_KEY = POOL_MAX_IDLE.key();
    /** The key of {@link #POOL_MIN_IDLE}. */
    public static final String POOL_MIN_IDLE_KEY = POOL_MIN_IDLE.key();
    /** The key of {@link #POOL_MAX_WAIT}. */
    public static final String POOL_MAX_WAIT_KEY = POOL_MAX_WAIT.key();
    /** The key of {@link #POOL_TEST_ON_BORROW}. */
    public static final String POOL_TEST_ON_BORROW_KEY = POOL_TEST_ON_BORROW.key();
    /** The key of {@link #CONNECT_TIMEOUT}. */
    public static final String CONNECT_TIMEOUT_KEY = CONNECT_TIMEOUT.key();
    /** The key of {@link #SOCKET_TIMEOUT}. */
    public static final String SOCKET_TIMEOUT_KEY = SOCKET_TIMEOUT.key();
    /** The key of {@link #CLUSTER_MAX_ATTEMPTS}. */
    public static final String CLUSTER_MAX_ATTEMPTS_KEY = CLUSTER_MAX_ATTEMPTS.key();

    /** The default {@link #uri()}. */
    public static final String DEFAULT_URI = URI_SETTING.defaultValue().orElseThrow();
    /** The default {@link #keyPrefix()}. */
    public static final String DEFAULT_KEY_PREFIX = KEY_PREFIX.defaultValue().orElseThrow();

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
        var b = custom().uri(URI_SETTING.read(config)).keyPrefix(KEY_PREFIX.read(config))
                .poolMaxTotal(POOL_MAX_TOTAL.read(config)).poolMaxIdle(POOL_MAX_IDLE.read(config))
                .poolMinIdle(POOL_MIN_IDLE.read(config)).poolMaxWait(POOL_MAX_WAIT.read(config))
                .poolTestOnBorrow(POOL_TEST_ON_BORROW.read(config)).connectTimeout(CONNECT_TIMEOUT.read(config))
                .socketTimeout(SOCKET_TIMEOUT.read(config)).clusterMaxAttempts(CLUSTER_MAX_ATTEMPTS.read(config));
        CLUSTER_NODES.find(config).ifPresent(nodes -> b.clusterNodes(splitNodes(nodes)));
        TTL.find(config).ifPresent(b::ttl);
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
        private int poolMaxTotal = POOL_MAX_TOTAL.defaultValue().orElseThrow();
        private int poolMaxIdle = POOL_MAX_IDLE.defaultValue().orElseThrow();
        private int poolMinIdle = POOL_MIN_IDLE.defaultValue().orElseThrow();
        private Duration poolMaxWait = POOL_MAX_WAIT.defaultValue().orElseThrow();
        private boolean poolTestOnBorrow = POOL_TEST_ON_BORROW.defaultValue().orElseThrow();
        private Duration connectTimeout = CONNECT_TIMEOUT.defaultValue().orElseThrow();
        private Duration socketTimeout = SOCKET_TIMEOUT.defaultValue().orElseThrow();
        private int clusterMaxAttempts = CLUSTER_MAX_ATTEMPTS.defaultValue().orElseThrow();

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
