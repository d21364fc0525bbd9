package dev.agentpersistence.jdbc;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
    /** JDBC URL; the dialect is chosen from it. */
    public static final Setting<String> URL_SETTING = Setting.text("agent.persistence.jdbc.url",
            "jdbc:sqlite:agent-checkpoints.db", "JDBC URL; the dialect (SQLite, PostgreSQL, MariaDB/MySQL, H2) is chosen from it.");
    /** Database user. */
    public static final Setting<String> USER_SETTING = Setting.text("agent.persistence.jdbc.user", null, "Database user.");
    /** Database password. */
    public static final Setting<String> PASSWORD_SETTING = Setting.text("agent.persistence.jdbc.password", null,
            "Database password (never printed).").secret();
    /** Maximum connections of the pool. */
    public static final Setting<Integer> POOL_SIZE_SETTING = Setting.integer("agent.persistence.jdbc.pool-size", 10, 1,
            Integer.MAX_VALUE, "Maximum pooled connections.");
    /** Prefix of every table name. */
    public static final Setting<String> TABLE_PREFIX_SETTING = Setting.text("agent.persistence.jdbc.table-prefix", "agent_",
            "Prefix of every table: 1 to 32 of a-z 0-9 _, starting with a letter.");
    /** Whether the schema is created and upgraded on first use. */
    public static final Setting<Boolean> MIGRATE_SETTING = Setting.bool("agent.persistence.jdbc.migrate", true,
            "Create and upgrade the schema on first use.");
    /** How long a call waits for a pooled connection before the database counts as unavailable. */
    public static final Setting<Duration> CONNECTION_TIMEOUT_SETTING = Setting.duration(
            "agent.persistence.jdbc.connection-timeout", Duration.ofSeconds(5),
            "How long a call waits for a connection before StorageUnavailableException (at least 250ms).");
    /** SQLite only: how long a statement waits for another process's write lock. */
    public static final Setting<Duration> BUSY_TIMEOUT_SETTING = Setting.durationOrZero("agent.persistence.jdbc.busy-timeout",
            Duration.ofSeconds(10), "SQLite: how long a statement waits for another process's write lock.");
    /** Time to live of each checkpoint, counted from its save. */
    public static final Setting<Duration> TTL_SETTING = Setting.duration("agent.persistence.jdbc.ttl", null,
            "Time to live of each checkpoint from its save (30d, 12h); expired ones go at the next deleteExpired().");
    /** Every JDBC setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(URL_SETTING, USER_SETTING, PASSWORD_SETTING, POOL_SIZE_SETTING,
            TABLE_PREFIX_SETTING, MIGRATE_SETTING, CONNECTION_TIMEOUT_SETTING, BUSY_TIMEOUT_SETTING, TTL_SETTING);

    /** The key of {@link #URL_SETTING}. */
    public static final String URL = URL_SETTING.key();
    /** The key of {@link #USER_SETTING}. */
    public static final String USER = USER_SETTING.key();
    /** The key of {@link #PASSWORD_SETTING}. */
    public static final String PASSWORD = PASSWORD_SETTING.key();
    /** The key of {@link #POOL_SIZE_SETTING}. */
    public static final String POOL_SIZE = POOL_SIZE_SETTING.key();
    /** The key of {@link #TABLE_PREFIX_SETTING}. */
    public static final String TABLE_PREFIX = TABLE_PREFIX_SETTING.key();
    /** The key of {@link #MIGRATE_SETTING}. */
    public static final String MIGRATE = MIGRATE_SETTING.key();
    /** The key of {@link #CONNECTION_TIMEOUT_SETTING}. */
    public static final String CONNECTION_TIMEOUT = CONNECTION_TIMEOUT_SETTING.key();
    /** The key of {@link #BUSY_TIMEOUT_SETTING}. */
    public static final String BUSY_TIMEOUT = BUSY_TIMEOUT_SETTING.key();
    /** The key of {@link #TTL_SETTING}. */
    public static final String TTL = TTL_SETTING.key();

    /** The embedded default: an SQLite file in the working directory. */
    public static final String DEFAULT_URL = URL_SETTING.defaultValue().orElseThrow();
    /** Default pool size. */
    public static final int DEFAULT_POOL_SIZE = POOL_SIZE_SETTING.defaultValue().orElseThrow();
    /** Default table prefix. */
    public static final String DEFAULT_TABLE_PREFIX = TABLE_PREFIX_SETTING.defaultValue().orElseThrow();

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
            var b = custom().url(URL_SETTING.read(config)).poolSize(POOL_SIZE_SETTING.read(config))
                    .tablePrefix(TABLE_PREFIX_SETTING.read(config)).migrate(MIGRATE_SETTING.read(config))
                    .connectionTimeout(CONNECTION_TIMEOUT_SETTING.read(config)).busyTimeout(BUSY_TIMEOUT_SETTING.read(config));
            USER_SETTING.find(config).ifPresent(b::user);
            PASSWORD_SETTING.find(config).ifPresent(b::password);
            TTL_SETTING.find(config).ifPresent(b::ttl);
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
        private boolean migrate = MIGRATE_SETTING.defaultValue().orElseThrow();
        private Duration connectionTimeout = CONNECTION_TIMEOUT_SETTING.defaultValue().orElseThrow();
        private Duration busyTimeout = BUSY_TIMEOUT_SETTING.defaultValue().orElseThrow();
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
