package dev.agentpersistence.redis;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingValues;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Immutable settings of a {@link StorageShell}: where Redis is, how keys are named, how long they live and how
 * connections are pooled. Each setting is declared once below; build with {@link #custom()}, start from
 * {@link #ofDefaults()}, or read the keys with {@link #from(ProviderConfig)}.
 *
 * <p>With {@link #clusterNodes()} set the provider talks to a Redis Cluster seeded by those nodes; {@link #uri()} then
 * only supplies the user, password and TLS ({@code rediss://}).
 */
public final class RedisStorageConfig {
    /** {@code redis://[user:password@]host:port[/db]}, or {@code rediss://…} for TLS. */
    public static final Setting<String> URI_SETTING = Setting.text(
                    "agent.persistence.redis.uri",
                    "redis://localhost:6379",
                    "redis://[user:password@]host:port[/db], rediss:// for TLS; in cluster mode only user, password "
                            + "and TLS apply.")
            .redacted()
            .checkedBy(RedisStorageConfig::uriProblem);
    /** {@code host:port} seed nodes; when set the provider runs in cluster mode. */
    public static final Setting<List<String>> CLUSTER_NODES = Setting.texts(
                    "agent.persistence.redis.cluster-nodes", "Comma-separated host:port seeds; when set, cluster mode.")
            .checkedBy(RedisStorageConfig::nodesProblem);
    /** Prefix of every key the provider writes. */
    public static final Setting<String> KEY_PREFIX = Setting.text(
                    "agent.persistence.redis.key-prefix", "agent-persistence:", "Prefix of every key; no { or }.")
            .checkedBy(v -> v.chars().anyMatch(c -> c == '{' || c == '}' || Character.isISOControl(c))
                    ? "free of '{', '}' (the cluster hash tag)" + " and control characters"
                    : null);
    /** Most connections open at once (per node in cluster mode). */
    public static final Setting<Integer> POOL_MAX_TOTAL = Setting.integer(
            "agent.persistence.redis.pool.max-total",
            16,
            1,
            Integer.MAX_VALUE,
            "Most connections open at once (per node in a cluster).");
    /** Most idle connections kept. */
    public static final Setting<Integer> POOL_MAX_IDLE = Setting.integer(
            "agent.persistence.redis.pool.max-idle", 8, 0, Integer.MAX_VALUE, "Most idle connections kept.");
    /** Fewest idle connections kept. */
    public static final Setting<Integer> POOL_MIN_IDLE = Setting.integer(
            "agent.persistence.redis.pool.min-idle", 0, 0, Integer.MAX_VALUE, "Fewest idle connections kept.");
    /** How long a call waits for a free connection. */
    public static final Setting<Duration> POOL_MAX_WAIT = Setting.duration(
            "agent.persistence.redis.pool.max-wait",
            Duration.ofSeconds(2),
            "How long a call waits for a free connection.");
    /** Whether a pooled connection is checked with PING before use. */
    public static final Setting<Boolean> POOL_TEST_ON_BORROW = Setting.bool(
            "agent.persistence.redis.pool.test-on-borrow",
            true,
            "PING a pooled connection idle for 1 s or more before use (in a cluster: every one), so a restarted "
                    + "server costs no failed call.");
    /** Time allowed to open a connection; with TLS, also for each read of the handshake. */
    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.duration(
                    "agent.persistence.redis.connect-timeout",
                    Duration.ofSeconds(2),
                    "Time allowed to open a connection; with rediss://, also for each read of the TLS handshake.")
            .checkedBy(RedisStorageConfig::intMillis);
    /** Time allowed for one reply. */
    public static final Setting<Duration> SOCKET_TIMEOUT = Setting.duration(
                    "agent.persistence.redis.socket-timeout", Duration.ofSeconds(5), "Time allowed for one reply.")
            .checkedBy(RedisStorageConfig::intMillis);
    /** Attempts of one command in cluster mode (redirections and failovers). */
    public static final Setting<Integer> CLUSTER_MAX_ATTEMPTS = Setting.integer(
            "agent.persistence.redis.cluster.max-attempts",
            5,
            1,
            Integer.MAX_VALUE,
            "Attempts per command in a cluster (redirections, failover).");
    /** Every Redis setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(
            URI_SETTING,
            CLUSTER_NODES,
            KEY_PREFIX,
            POOL_MAX_TOTAL,
            POOL_MAX_IDLE,
            POOL_MIN_IDLE,
            POOL_MAX_WAIT,
            POOL_TEST_ON_BORROW,
            CONNECT_TIMEOUT,
            SOCKET_TIMEOUT,
            CLUSTER_MAX_ATTEMPTS);

    private static final RedisStorageConfig DEFAULTS = custom().build();

    private final SettingValues values;

    private RedisStorageConfig(SettingValues values) {
        this.values = values;
    }

    /**
     * The defaults: a server on {@code localhost:6379}, prefix {@code agent-persistence:}, no time to live (that is the
     * shell's, {@link dev.agentpersistence.storage.StorageSettings#TTL}).
     */
    public static RedisStorageConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(SettingValues.defaults(SETTINGS));
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(values);
    }

    /**
     * Reads the {@code agent.persistence.redis.*} keys; unset keys keep their defaults.
     *
     * @throws PersistenceException when a value cannot be parsed or is out of range, or the pool sizes do not nest
     */
    public static RedisStorageConfig from(ProviderConfig config) {
        var values = SettingValues.read(SETTINGS, config);
        try {
            return new Builder(values).build();
        } catch (IllegalArgumentException e) {
            throw new PersistenceException("Invalid Redis settings: " + e.getMessage(), e);
        }
    }

    /** The server (standalone) or the credentials and TLS choice (cluster). */
    public String uri() {
        return values.get(URI_SETTING);
    }

    /** {@code host:port} seed nodes of a cluster; empty for a standalone server. */
    public List<String> clusterNodes() {
        return values.find(CLUSTER_NODES).orElse(List.of());
    }

    /** Whether {@link #clusterNodes()} selects cluster mode. */
    public boolean isCluster() {
        return !clusterNodes().isEmpty();
    }

    /** Prefix of every key; never contains <code>{</code> or <code>}</code>, which would break the hash tags. */
    public String keyPrefix() {
        return values.get(KEY_PREFIX);
    }

    /** Most connections open at once (per node in cluster mode). */
    public int poolMaxTotal() {
        return values.get(POOL_MAX_TOTAL);
    }

    /** Most idle connections kept. */
    public int poolMaxIdle() {
        return values.get(POOL_MAX_IDLE);
    }

    /** Fewest idle connections kept. */
    public int poolMinIdle() {
        return values.get(POOL_MIN_IDLE);
    }

    /** How long a call waits for a free connection. */
    public Duration poolMaxWait() {
        return values.get(POOL_MAX_WAIT);
    }

    /** Whether pooled connections are checked with PING before use. */
    public boolean poolTestOnBorrow() {
        return values.get(POOL_TEST_ON_BORROW);
    }

    /** Time allowed to open a connection. */
    public Duration connectTimeout() {
        return values.get(CONNECT_TIMEOUT);
    }

    /** Time allowed for one reply. */
    public Duration socketTimeout() {
        return values.get(SOCKET_TIMEOUT);
    }

    /** Attempts of one command in cluster mode. */
    public int clusterMaxAttempts() {
        return values.get(CLUSTER_MAX_ATTEMPTS);
    }

    /** Where the provider connects, password hidden, for messages. */
    public String endpoint() {
        return isCluster() ? "cluster " + String.join(",", clusterNodes()) : URI_SETTING.show(uri());
    }

    /** The settings, passwords hidden. */
    @Override
    public String toString() {
        return "RedisStorageConfig" + values;
    }

    /** Builds {@link RedisStorageConfig}s; every setter checks its argument against the declaration. */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /** {@code redis://[user:password@]host[:port][/db]} or {@code rediss://…} (TLS). */
        public Builder uri(String uri) {
            values = values.with(URI_SETTING, Objects.requireNonNull(uri, "uri").strip());
            return this;
        }

        /** Seed nodes of a Redis Cluster as {@code host:port}; an empty list selects a standalone server. */
        public Builder clusterNodes(List<String> nodes) {
            values = values.with(CLUSTER_NODES, List.copyOf(nodes));
            return this;
        }

        /** Prefix of every key: not empty, no control characters, no <code>{</code> or <code>}</code>. */
        public Builder keyPrefix(String keyPrefix) {
            values = values.with(KEY_PREFIX, keyPrefix);
            return this;
        }

        /** Most connections open at once (per node in cluster mode); at least 1. */
        public Builder poolMaxTotal(int poolMaxTotal) {
            values = values.with(POOL_MAX_TOTAL, poolMaxTotal);
            return this;
        }

        /** Most idle connections kept; at least 0. */
        public Builder poolMaxIdle(int poolMaxIdle) {
            values = values.with(POOL_MAX_IDLE, poolMaxIdle);
            return this;
        }

        /** Fewest idle connections kept; at least 0. */
        public Builder poolMinIdle(int poolMinIdle) {
            values = values.with(POOL_MIN_IDLE, poolMinIdle);
            return this;
        }

        /** How long a call waits for a free connection; positive. */
        public Builder poolMaxWait(Duration poolMaxWait) {
            values = values.with(POOL_MAX_WAIT, poolMaxWait);
            return this;
        }

        /** Whether pooled connections are checked with PING before use (default {@code true}). */
        public Builder poolTestOnBorrow(boolean poolTestOnBorrow) {
            values = values.with(POOL_TEST_ON_BORROW, poolTestOnBorrow);
            return this;
        }

        /** Time allowed to open a connection; 1 ms to {@link Integer#MAX_VALUE} ms. */
        public Builder connectTimeout(Duration connectTimeout) {
            values = values.with(CONNECT_TIMEOUT, connectTimeout);
            return this;
        }

        /** Time allowed for one reply; 1 ms to {@link Integer#MAX_VALUE} ms. */
        public Builder socketTimeout(Duration socketTimeout) {
            values = values.with(SOCKET_TIMEOUT, socketTimeout);
            return this;
        }

        /** Attempts of one command in cluster mode; at least 1. */
        public Builder clusterMaxAttempts(int clusterMaxAttempts) {
            values = values.with(CLUSTER_MAX_ATTEMPTS, clusterMaxAttempts);
            return this;
        }

        /**
         * @throws IllegalArgumentException when {@code poolMinIdle > poolMaxIdle} or {@code poolMaxIdle > poolMaxTotal}
         */
        public RedisStorageConfig build() {
            var config = new RedisStorageConfig(values);
            if (config.poolMinIdle() > config.poolMaxIdle() || config.poolMaxIdle() > config.poolMaxTotal()) {
                throw new IllegalArgumentException("pool sizes must nest (" + POOL_MIN_IDLE.key() + " <= "
                        + POOL_MAX_IDLE.key() + " <= " + POOL_MAX_TOTAL.key() + ") but were " + config.poolMinIdle()
                        + ", " + config.poolMaxIdle() + ", " + config.poolMaxTotal());
            }
            return config;
        }
    }

    private static String uriProblem(String uri) {
        String expected = "redis://[user:password@]host[:port][/db] or rediss://…, with @ : / ? # % and spaces"
                + " in the user name and password percent-encoded (%40 for @)";
        try {
            URI parsed = new URI(uri.strip());
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            String path = parsed.getPath() == null ? "" : parsed.getPath();
            boolean fine = (scheme.equals("redis") || scheme.equals("rediss"))
                    && parsed.getHost() != null
                    && (path.length() <= 1 || path.substring(1).matches("\\d{1,5}"));
            return fine ? null : expected;
        } catch (URISyntaxException e) {
            return expected;
        }
    }

    private static String nodesProblem(List<String> nodes) {
        for (String node : nodes) {
            int colon = node.lastIndexOf(':');
            String port = colon <= 0 ? "" : node.substring(colon + 1);
            if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                return "a list of host:port with ports from 1 to 65535";
            }
        }
        return null;
    }

    private static String intMillis(Duration timeout) {
        return timeout.toMillis() < 1 || timeout.toMillis() > Integer.MAX_VALUE
                ? "from 1 ms to " + Integer.MAX_VALUE + " ms"
                : null;
    }
}
