package dev.agentpersistence.jdbc;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingValues;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Immutable settings of the JDBC provider ({@link JdbcStorage}), each declared once below; the time to live and the
 * clock are the shell's ({@link dev.agentpersistence.storage.StorageSettings}). Build with {@link #custom()}, start
 * from {@link #ofDefaults()}, or read the keys with {@link #from(ProviderConfig)}.
 *
 * <p>When the provider is built over a {@code DataSource} the application already has, only {@link #tablePrefix()},
 * {@link #migrate()} and {@link #busyTimeout()} apply.
 */
public final class JdbcStorageConfig {
    /** JDBC URL; the dialect is chosen from it. */
    public static final Setting<String> URL = Setting.text(
                    "agent.persistence.jdbc.url",
                    "jdbc:sqlite:agent-checkpoints.db",
                    "JDBC URL; the dialect (SQLite, PostgreSQL, MariaDB/MySQL, H2) is chosen from it.")
            .redacted()
            .checkedBy(url -> url.startsWith("jdbc:") ? null : "a JDBC URL starting with 'jdbc:'");
    /** Database user. */
    public static final Setting<String> USER = Setting.text("agent.persistence.jdbc.user", null, "Database user.");
    /** Database password. */
    public static final Setting<String> PASSWORD = Setting.text(
                    "agent.persistence.jdbc.password", null, "Database password (never printed).")
            .secret();
    /** Maximum connections of the pool. */
    public static final Setting<Integer> POOL_SIZE = Setting.integer(
            "agent.persistence.jdbc.pool-size", 10, 1, Integer.MAX_VALUE, "Maximum pooled connections.");
    /** Prefix of every table name. */
    public static final Setting<String> TABLE_PREFIX = Setting.text(
                    "agent.persistence.jdbc.table-prefix",
                    "agent_",
                    "Prefix of every table: 1 to 32 of a-z 0-9 _, starting with a letter.")
            .checkedBy(prefix -> prefix.matches("[a-z][a-z0-9_]{0,31}")
                    ? null
                    : "1 to 32 lower-case letters, digits or '_', starting with a letter");
    /** Whether the schema is created and upgraded on first use. */
    public static final Setting<Boolean> MIGRATE =
            Setting.bool("agent.persistence.jdbc.migrate", true, "Create and upgrade the schema on first use.");
    /** How long a call waits for a pooled connection before the database counts as unavailable. */
    public static final Setting<Duration> CONNECTION_TIMEOUT = Setting.duration(
                    "agent.persistence.jdbc.connection-timeout",
                    Duration.ofSeconds(5),
                    "How long a call waits for a connection before StorageUnavailableException (at least 250ms).")
            .checkedBy(timeout -> timeout.toMillis() < 250 ? "at least 250ms" : null);
    /** SQLite only: how long a statement waits for another process's write lock. */
    public static final Setting<Duration> BUSY_TIMEOUT = Setting.durationOrZero(
                    "agent.persistence.jdbc.busy-timeout",
                    Duration.ofSeconds(10),
                    "SQLite: how long a statement waits for another process's write lock.")
            .checkedBy(timeout -> timeout.toMillis() > Integer.MAX_VALUE ? "at most 24 days" : null);
    /** Every JDBC setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS =
            List.of(URL, USER, PASSWORD, POOL_SIZE, TABLE_PREFIX, MIGRATE, CONNECTION_TIMEOUT, BUSY_TIMEOUT);

    private static final JdbcStorageConfig DEFAULTS = custom().build();

    private final SettingValues values;

    private JdbcStorageConfig(SettingValues values) {
        this.values = values;
    }

    /** The defaults: an SQLite file in the working directory, prefix {@code agent_}, migrations on. */
    public static JdbcStorageConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder holding the defaults. */
    public static Builder custom() {
        return new Builder(SettingValues.defaults(SETTINGS));
    }

    /** A builder pre-filled with these settings. */
    public Builder toBuilder() {
        return new Builder(values);
    }

    /**
     * Reads the {@code agent.persistence.jdbc.*} keys; unset keys keep their defaults.
     *
     * @throws dev.agentpersistence.PersistenceException when a value is malformed or out of range
     */
    public static JdbcStorageConfig from(ProviderConfig config) {
        return new JdbcStorageConfig(SettingValues.read(SETTINGS, config));
    }

    /** The JDBC URL. */
    public String url() {
        return values.get(URL);
    }

    /** The database user, if set. */
    public Optional<String> user() {
        return values.find(USER);
    }

    /** The database password, if set. */
    public Optional<String> password() {
        return values.find(PASSWORD);
    }

    /** Maximum pooled connections. */
    public int poolSize() {
        return values.get(POOL_SIZE);
    }

    /** Prefix of the table names: lower-case letters, digits and {@code _}, starting with a letter. */
    public String tablePrefix() {
        return values.get(TABLE_PREFIX);
    }

    /** Whether the schema is created and upgraded on first use. */
    public boolean migrate() {
        return values.get(MIGRATE);
    }

    /** How long a call waits for a connection before failing with {@code StorageUnavailableException}. */
    public Duration connectionTimeout() {
        return values.get(CONNECTION_TIMEOUT);
    }

    /** SQLite: how long a statement waits for another process's lock. */
    public Duration busyTimeout() {
        return values.get(BUSY_TIMEOUT);
    }

    /** The settings, password hidden. */
    @Override
    public String toString() {
        return "JdbcStorageConfig" + values;
    }

    /** Builds {@link JdbcStorageConfig}s; every setter checks its argument against the declaration. */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /**
         * The JDBC URL: {@code jdbc:sqlite:}, {@code jdbc:postgresql:}, {@code jdbc:mariadb:}, {@code jdbc:mysql:} or
         * {@code jdbc:h2:}.
         */
        public Builder url(String url) {
            values = values.with(URL, url);
            return this;
        }

        /** The database user; {@code null} for none. */
        public Builder user(String user) {
            values = user == null ? values.without(USER) : values.with(USER, user);
            return this;
        }

        /** The database password; {@code null} for none. */
        public Builder password(String password) {
            values = password == null ? values.without(PASSWORD) : values.with(PASSWORD, password);
            return this;
        }

        /** Maximum pooled connections, at least 1. */
        public Builder poolSize(int poolSize) {
            values = values.with(POOL_SIZE, poolSize);
            return this;
        }

        /** Prefix of the table names: 1 to 32 lower-case letters, digits or {@code _}, starting with a letter. */
        public Builder tablePrefix(String tablePrefix) {
            values = values.with(TABLE_PREFIX, tablePrefix);
            return this;
        }

        /** Whether to create and upgrade the schema on first use. */
        public Builder migrate(boolean migrate) {
            values = values.with(MIGRATE, migrate);
            return this;
        }

        /** How long a call waits for a connection; at least 250ms. */
        public Builder connectionTimeout(Duration connectionTimeout) {
            values = values.with(CONNECTION_TIMEOUT, connectionTimeout);
            return this;
        }

        /** SQLite: how long a statement waits for another process's lock; 0 to 24 days. */
        public Builder busyTimeout(Duration busyTimeout) {
            values = values.with(BUSY_TIMEOUT, busyTimeout);
            return this;
        }

        /** The settings. */
        public JdbcStorageConfig build() {
            return new JdbcStorageConfig(values);
        }
    }
}
