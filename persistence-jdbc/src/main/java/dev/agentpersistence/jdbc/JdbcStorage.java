package dev.agentpersistence.jdbc;

import dev.agentpersistence.jdbc.internal.JdbcDatabase;
import dev.agentpersistence.jdbc.internal.JdbcStorageBackend;
import dev.agentpersistence.storage.StorageShell;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Entry point of the JDBC provider: checkpoints in a relational database through plain JDBC — SQLite (the embedded
 * default), PostgreSQL, MariaDB/MySQL or H2, chosen from the JDBC URL. Each method returns the shell's builder over the
 * JDBC backend; {@code build()} gives the provider.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage =
 *         JdbcStorage.builder(JdbcStorageConfig.custom().url("jdbc:postgresql://db/agents").build())
 *                 .settings(StorageSettings.custom().ttl(Duration.ofDays(30)).build())
 *                 .build();
 * }</pre>
 *
 * <p>Each checkpoint is one row holding the stored document plus the columns every filter field is evaluated on, and
 * one row per metadata entry in a child table. Filters, limits and "latest" run as indexed SQL; no call reads all of an
 * agent's rows. A save is one transaction. A database that is down or unreachable gives
 * {@link dev.agentpersistence.StorageUnavailableException}; the same instance works again once the database is back.
 * The schema is created and upgraded on first use (see {@link JdbcStorageConfig#migrate()}). On MariaDB/MySQL a
 * checkpoint whose statement would exceed the server's {@code max_allowed_packet} (read once, on the first save) is
 * refused before it is sent with {@link dev.agentpersistence.CheckpointTooLargeException}, which is never retried.
 * History segments live in {@code <prefix>history_segments}; a time to live fills {@code <prefix>checkpoint_expiry},
 * emptied by {@code deleteExpired()}. Thread-safe.
 */
public final class JdbcStorage {
    private JdbcStorage() {}

    /**
     * A provider with its own HikariCP pool over {@code config.url()}, closed with the provider. Connects lazily: the
     * first call migrates the schema.
     *
     * @throws dev.agentpersistence.PersistenceException (from {@code build()}) when the URL names an unsupported
     *     database
     */
    public static StorageShell.Builder builder(JdbcStorageConfig config) {
        Objects.requireNonNull(config, "config");
        return StorageShell.builder(
                context -> new JdbcStorageBackend(JdbcDatabase.pooled(config, context.readOnly()), context.clock()));
    }

    /**
     * A provider over the application's data source, which the application keeps owning (and closing); of
     * {@code config} only the table prefix, migration and busy timeout apply.
     */
    public static StorageShell.Builder builder(JdbcStorageConfig config, DataSource dataSource) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(dataSource, "dataSource");
        return StorageShell.builder(context ->
                new JdbcStorageBackend(JdbcDatabase.external(dataSource, config, context.readOnly()), context.clock()));
    }
}
