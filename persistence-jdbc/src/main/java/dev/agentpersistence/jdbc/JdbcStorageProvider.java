package dev.agentpersistence.jdbc;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.jdbc.internal.JdbcDatabase;
import dev.agentpersistence.jdbc.internal.JdbcStorageBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;

/**
 * Stores checkpoints in a relational database through JDBI: SQLite (the embedded default), PostgreSQL, MariaDB/MySQL or
 * H2, chosen from the JDBC URL. The storage shell ({@link StorageShell}) over {@code JdbcStorageBackend}: it reads
 * every stored form and writes the one its {@link StorageSettings} choose (by default those of discovery: checksums,
 * compression from 4 KiB, incremental history).
 *
 * <p>Each checkpoint is one row holding the stored document plus the columns every filter field is evaluated on, and
 * one row per metadata entry in a child table. Filters, limits and "latest" run as indexed SQL; no call reads all of an
 * agent's rows. A save is one transaction. A database that is down or unreachable gives
 * {@link dev.agentpersistence.StorageUnavailableException}; the same instance works again once the database is back.
 * The schema is created and upgraded on first use (see {@link JdbcStorageConfig#migrate()}). On MariaDB/MySQL a
 * checkpoint whose statement would exceed the server's {@code max_allowed_packet} (read once, on the first save) is
 * refused before it is sent with {@link dev.agentpersistence.CheckpointTooLargeException}, which is never retried.
 * History segments live in {@code <prefix>history_segments}; a time to live ({@link JdbcStorageConfig#ttl()}) fills
 * {@code <prefix>checkpoint_expiry}, emptied by {@link #deleteExpired()}.
 *
 * <p>Thread-safe. Create with {@link #create(JdbcStorageConfig)} (the provider owns a HikariCP pool and closes it) or
 * {@link #builder()} over an existing {@link DataSource} or {@link Jdbi} (the application keeps ownership of it).
 */
public final class JdbcStorageProvider extends StorageShell {

    private JdbcStorageProvider(JdbcDatabase database, StorageSettings settings, Clock clock) {
        super(new JdbcStorageBackend(database, clock), settings, clock);
    }

    /**
     * A provider with its own connection pool over {@code config.url()} and the default settings.
     *
     * @throws PersistenceException when the URL names an unsupported database
     */
    public static JdbcStorageProvider create(JdbcStorageConfig config) {
        return builder().config(config).build();
    }

    /** A builder; without a data source or {@code Jdbi} the provider pools connections to the configured URL. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link JdbcStorageProvider}s. */
    public static final class Builder {
        private JdbcStorageConfig config = JdbcStorageConfig.ofDefaults();
        private DataSource dataSource;
        private Jdbi jdbi;
        private StorageSettings settings = StorageSettings.ofDefaults();
        private Clock clock;

        private Builder() {}

        /**
         * The settings; with a data source or {@code Jdbi}, only the table prefix, migration, busy timeout and ttl
         * apply.
         */
        public Builder config(JdbcStorageConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Uses the application's data source; the application keeps owning (and closing) it. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /** Uses the application's {@code Jdbi}; the application keeps owning its data source. */
        public Builder jdbi(Jdbi jdbi) {
            this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
            return this;
        }

        /**
         * What is written: layers, maximum size, incremental history (default {@link StorageSettings#ofDefaults()}).
         */
        public Builder settings(StorageSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The clock for expiry and segment times (default {@link JdbcStorageConfig#clock()}). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Creates the provider. Connects lazily: the first call migrates the schema.
         *
         * @throws IllegalStateException when both a data source and a {@code Jdbi} were given
         * @throws PersistenceException when the URL names an unsupported database
         */
        public JdbcStorageProvider build() {
            if (dataSource != null && jdbi != null) {
                throw new IllegalStateException("Give either a DataSource or a Jdbi, not both");
            }
            JdbcDatabase database;
            if (jdbi != null) {
                database = JdbcDatabase.external(jdbi, config);
            } else if (dataSource != null) {
                database = JdbcDatabase.external(Jdbi.create(dataSource), config);
            } else {
                database = JdbcDatabase.pooled(config);
            }
            var effective = config.ttl().isPresent()
                    ? StorageSettings.from(settings).ttl(config.ttl().get()).build()
                    : settings;
            return new JdbcStorageProvider(database, effective, clock != null ? clock : config.clock());
        }
    }
}
