package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Makes the database ready before the first operation, once: connects once outside the pool it owns (so refused
 * credentials and unknown databases fail at once), detects the dialect of an application's data source and migrates the
 * schema when the configuration asks for it; a read-only database is never migrated, its schema version is checked.
 * Each step runs with the operations' retry rules; a failed step is tried again by the next operation.
 */
final class SchemaReadiness {
    private final ConnectionSource source;
    private final DatabaseIdentity identity;
    private final JdbcStorageConfig config;
    private final Tables tables;
    private final Retrier retrier;
    private final WriteSerializer writes;
    private final boolean readOnly;
    private final ReentrantLock initLock = new ReentrantLock();
    private volatile boolean ready;

    SchemaReadiness(
            ConnectionSource source,
            DatabaseIdentity identity,
            JdbcStorageConfig config,
            Tables tables,
            Retrier retrier,
            WriteSerializer writes,
            boolean readOnly) {
        this.readOnly = readOnly;
        this.source = source;
        this.identity = identity;
        this.config = config;
        this.tables = tables;
        this.retrier = retrier;
        this.writes = writes;
    }

    /** Returns at once when the database is ready, else detects and migrates. */
    void ensureReady() {
        if (ready) {
            return;
        }
        initLock.lock();
        try {
            if (ready) {
                return;
            }
            retrier.run("connecting", source::probe);
            if (!identity.known()) {
                detectDialect();
            }
            if (readOnly) {
                retrier.run("schema check", this::checkSchema);
            } else if (config.migrate()) {
                Dialect dialect = identity.dialect();
                var migrator = new SchemaMigrator(
                        dialect, tables, config, dialect.ddl().migrations(tables));
                retrier.run(
                        "schema migration",
                        () -> writes.run(true, () -> {
                            source.withConnection(migrator::migrate);
                            return null;
                        }));
            }
            ready = true;
        } finally {
            initLock.unlock();
        }
    }

    /**
     * For a reader that may not migrate: the schema version table must exist and hold exactly the migrations this
     * version knows.
     */
    private void checkSchema() {
        Dialect dialect = identity.dialect();
        Set<Integer> applied;
        try {
            List<Integer> rows = source.withConnection(connection ->
                    Sql.list(connection, "SELECT version FROM " + tables.schemaVersion(), found -> found.getInt(1)));
            applied = new TreeSet<Integer>(rows);
        } catch (SqlFailure e) {
            if (FailureKind.of(e, dialect) != FailureKind.OTHER) {
                throw e;
            }
            throw new StorageNotFoundException("The checkpoint tables '" + tables.prefix() + "*' do not exist in "
                    + identity.redactor().redact(identity.endpoint()) + " (table " + tables.schemaVersion()
                    + " does not exist); a read-only provider creates none"
                    + " (check agent.persistence.jdbc.table-prefix)");
        }
        int known = dialect.ddl().migrations(tables).stream()
                .mapToInt(Migration::version)
                .max()
                .orElse(0);
        int stored = applied.stream().mapToInt(Integer::intValue).max().orElse(0);
        if (stored > known) {
            throw new StorageConfigurationException("The checkpoint tables '" + tables.prefix()
                    + "*' have schema version "
                    + stored + ", newer than version " + known + ", the newest this reader knows; use a newer version"
                    + " of agent-persistence");
        }
        for (Migration migration : dialect.ddl().migrations(tables)) {
            if (migration.version() <= SchemaDdl.READERS_NEED && !applied.contains(migration.version())) {
                throw new StorageConfigurationException("The checkpoint tables '" + tables.prefix()
                        + "*' have schema version " + stored + ", older than version " + SchemaDdl.READERS_NEED
                        + ", which this reader needs (migration " + migration.version() + " is missing); open them"
                        + " once for writing with migration on to bring them up to date");
            }
        }
    }

    private void detectDialect() {
        retrier.run(
                "database detection",
                () -> source.withConnection(connection -> {
                    var meta = connection.getMetaData();
                    String url = meta.getURL();
                    Dialect detected = Dialects.forConnection(url, meta.getDatabaseProductName());
                    source.sessionSetup().use(detected.sessionSetup(config));
                    identity.detected(detected, url);
                    return null;
                }));
    }
}
