package dev.agentpersistence.jdbc;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Immutable settings of a {@link JdbcStorageProvider}. Build with {@link #custom()}, start from
 * {@link #ofDefaults()}, or read the {@code agent.persistence.jdbc.*} keys with {@link #from(ProviderConfig)}.
 *
 * <p>When the provider is built over a {@code DataSource} or {@code Jdbi} the application already
 * has, only {@link #tablePrefix()}, {@link #migrate()} and {@link #busyTimeout()} apply.
 */
public final class JdbcStorageConfig {
    /** JDBC URL; the dialect is chosen from it. Default {@value #DEFAULT_URL}. */
    public static final String URL = "agent.persistence.jdbc.url";
    /** Database user. */
    public static final String USER = "agent.persistence.jdbc.user";
    /** Database password. */
    public static final String PASSWORD = "agent.persistence.jdbc.password";
    /** Maximum connections of the pool. Default {@value #DEFAULT_POOL_SIZE}. */
    public static final String POOL_SIZE = "agent.persistence.jdbc.pool-size";
    /** Prefix of every table name. Default {@value #DEFAULT_TABLE_PREFIX}. */
    public static final String TABLE_PREFIX = "agent.persistence.jdbc.table-prefix";
    /** Whether the schema is created and upgraded on first use. Default {@code true}. */
    public static final String MIGRATE = "agent.persistence.jdbc.migrate";
    /** How long a call waits for a pooled connection before the database counts as unavailable. Default 5s. */
    public static final String CONNECTION_TIMEOUT = "agent.persistence.jdbc.connection-timeout";
    /** SQLite only: how long a statement waits for another process's write lock. Default 10s. */
    public static final String BUSY_TIMEOUT = "agent.persistence.jdbc.busy-timeout";
    /** Time to live of each checkpoint, counted from its save; expired rows go at the next {@code deleteExpired()}. Default none. */
    public static final String TTL = "agent.persistence.jdbc.ttl";

    /** The embedded default: an SQLite file in the working directory. */
    public static final String DEFAULT_URL = "jdbc:sqlite:agent-checkpoints.db";
    /** Default pool size. */
    public static final int DEFAULT_POOL_SIZE = 10;
    /** Default table prefix. */
    public static final String DEFAULT_TABLE_PREFIX = "agent_";

    private static final Pattern PREFIX_PATTERN = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    private static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);
    private static final JdbcStorageConfig DEFAULTS = custom().build();

    private final String url;
    private final String user;
    private final String password;
    private final int poolSize;
    private final String tablePrefix;
    private final boolean migrate;
    private final Duration connectionTimeout;
    private final Duration busyTimeout;
    private final Duration ttl;
    private final Clock clock;

    private JdbcStorageConfig(Builder b) {
        this.url = b.url;
        this.user = b.user;
        this.password = b.password;
        this.poolSize = b.poolSize;
        this.tablePrefix = b.tablePrefix;
        this.migrate = b.migrate;
        this.connectionTimeout = b.connectionTimeout;
        this.busyTimeout = b.busyTimeout;
        this.ttl = b.ttl;
        this.clock = b.clock;
    }

    /** The defaults: SQLite file {@value #DEFAULT_URL}, prefix {@value #DEFAULT_TABLE_PREFIX}, migrations on. */
    public static JdbcStorageConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder holding the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder pre-filled with these settings. */
    public Builder toBuilder() {
        var b = new Builder().url(url).poolSize(poolSize).tablePrefix(tablePrefix).migrate(migrate)
                .connectionTimeout(connectionTimeout).busyTimeout(busyTimeout).clock(clock);
        b.ttl = ttl;
        b.user = user;
        b.password = password;
        return b;
    }

    /**
     * Reads the {@code agent.persistence.jdbc.*} keys; unset keys keep their defaults.
     *
     * @throws PersistenceException when a value is malformed or out of range
     */
    public static JdbcStorageConfig from(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        try {
            var b = custom()
                    .url(config.get(URL, DEFAULT_URL))
                    .poolSize(config.getInt(POOL_SIZE, DEFAULT_POOL_SIZE))
                    .tablePrefix(config.get(TABLE_PREFIX, DEFAULT_TABLE_PREFIX))
                    .migrate(config.getBoolean(MIGRATE, true));
            config.get(USER).ifPresent(b::user);
            config.get(PASSWORD).ifPresent(b::password);
            config.getDuration(CONNECTION_TIMEOUT).ifPresent(b::connectionTimeout);
            config.getDuration(BUSY_TIMEOUT).ifPresent(b::busyTimeout);
            config.getDuration(TTL).ifPresent(b::ttl);
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new PersistenceException("Invalid JDBC storage setting: " + e.getMessage(), e);
        }
    }

    /** The JDBC URL. */
    public String url() {
        return url;
    }

    /** The database user, if set. */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /** The database password, if set. */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** Maximum pooled connections. */
    public int poolSize() {
        return poolSize;
    }

    /** Prefix of the table names: lower-case letters, digits and {@code _}, starting with a letter. */
    public String tablePrefix() {
        return tablePrefix;
    }

    /** Whether the schema is created and upgraded on first use. */
    public boolean migrate() {
        return migrate;
    }

    /** How long a call waits for a connection before failing with {@code StorageUnavailableException}. */
    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /** SQLite: how long a statement waits for another process's lock. */
    public Duration busyTimeout() {
        return busyTimeout;
    }

    /** How long a checkpoint lives after its save, if limited (stored in the {@code expires_at} column). */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }

    /** The clock for expiry times and history segment write times. */
    public Clock clock() {
        return clock;
    }

    /** The settings, password hidden. */
    @Override
    public String toString() {
        return "JdbcStorageConfig[url=" + ProviderConfig.redact(url) + ", user=" + user
                + ", password=" + (password == null ? "null" : "****") + ", poolSize=" + poolSize
                + ", tablePrefix=" + tablePrefix + ", migrate=" + migrate
                + ", connectionTimeout=" + connectionTimeout + ", busyTimeout=" + busyTimeout
                + (ttl == null ? "" : ", ttl=" + ttl) + "]";
    }

    /** Builds {@link JdbcStorageConfig}s; every setter validates its argument. */
    public static final class Builder {
        private String url = DEFAULT_URL;
        private String user;
        private String password;
        private int poolSize = DEFAULT_POOL_SIZE;
        private String tablePrefix = DEFAULT_TABLE_PREFIX;
        private boolean migrate = true;
        private Duration connectionTimeout = Duration.ofSeconds(5);
        private Duration busyTimeout = Duration.ofSeconds(10);
        private Duration ttl;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** The JDBC URL, starting with {@code jdbc:sqlite:}, {@code jdbc:postgresql:}, {@code jdbc:mariadb:}, {@code jdbc:mysql:} or {@code jdbc:h2:}. */
        public Builder url(String url) {
            Objects.requireNonNull(url, "url");
            if (!url.startsWith("jdbc:")) {
                throw new IllegalArgumentException("url must start with 'jdbc:' but was '" + ProviderConfig.redact(url) + "'");
            }
            this.url = url;
            return this;
        }

        /** The database user; {@code null} for none. */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /** The database password; {@code null} for none. */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** Maximum pooled connections, at least 1. */
        public Builder poolSize(int poolSize) {
            if (poolSize < 1) {
                throw new IllegalArgumentException(POOL_SIZE + " must be >= 1 but was " + poolSize);
            }
            this.poolSize = poolSize;
            return this;
        }

        /** Prefix of the table names: 1 to 32 lower-case letters, digits or {@code _}, starting with a letter. */
        public Builder tablePrefix(String tablePrefix) {
            Objects.requireNonNull(tablePrefix, "tablePrefix");
            if (!PREFIX_PATTERN.matcher(tablePrefix).matches()) {
                throw new IllegalArgumentException(TABLE_PREFIX + " must be 1 to 32 lower-case letters, digits or '_', "
                        + "starting with a letter, but was '" + tablePrefix + "'");
            }
            this.tablePrefix = tablePrefix;
            return this;
        }

        /** Whether to create and upgrade the schema on first use. */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /** How long a call waits for a connection; at least 250ms. */
        public Builder connectionTimeout(Duration connectionTimeout) {
            Objects.requireNonNull(connectionTimeout, "connectionTimeout");
            if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
                throw new IllegalArgumentException(CONNECTION_TIMEOUT + " must be >= 250ms but was " + connectionTimeout);
            }
            this.connectionTimeout = connectionTimeout;
            return this;
        }

        /** SQLite: how long a statement waits for another process's lock; not negative. */
        public Builder busyTimeout(Duration busyTimeout) {
            Objects.requireNonNull(busyTimeout, "busyTimeout");
            if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(BUSY_TIMEOUT + " must be between 0 and 24 days but was " + busyTimeout);
            }
            this.busyTimeout = busyTimeout;
            return this;
        }

        /** Each checkpoint expires this long (at least 1ms) after its save; see {@code JdbcStorageProvider.deleteExpired()}. */
        public Builder ttl(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.toMillis() < 1) {
                throw new IllegalArgumentException(TTL + " must be at least 1ms but was " + ttl);
            }
            this.ttl = ttl;
            return this;
        }

        /** Checkpoints never expire (the default). */
        public Builder noTtl() {
            this.ttl = null;
            return this;
        }

        /** The clock for expiry and segment write times (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public JdbcStorageConfig build() {
            return new JdbcStorageConfig(this);
        }
    }
}
