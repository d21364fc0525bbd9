package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import org.jdbi.v3.core.ConnectionException;

/**
 * Makes the database ready before the first operation, once: connects once outside the pool it owns (so refused
 * credentials and unknown databases fail at once), detects the dialect of an application's data source and migrates the
 * schema when the configuration asks for it. Each step runs with the operations' retry rules; a failed step is tried
 * again by the next operation.
 */
final class SchemaReadiness {
    private final ConnectionSource source;
    private final DatabaseIdentity identity;
    private final JdbcStorageConfig config;
    private final Tables tables;
    private final Retrier retrier;
    private final WriteSerializer writes;
    private final ReentrantLock initLock = new ReentrantLock();
    private volatile boolean ready;

    SchemaReadiness(
            ConnectionSource source,
            DatabaseIdentity identity,
            JdbcStorageConfig config,
            Tables tables,
            Retrier retrier,
            WriteSerializer writes) {
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
            if (config.migrate()) {
                Dialect dialect = identity.dialect();
                var migrator = new SchemaMigrator(
                        dialect, tables, config, dialect.ddl().migrations(tables));
                retrier.run(
                        "schema migration",
                        () -> writes.run(true, () -> {
                            migrator.migrate(source.jdbi());
                            return null;
                        }));
            }
            ready = true;
        } finally {
            initLock.unlock();
        }
    }

    private void detectDialect() {
        retrier.run(
                "database detection",
                () -> source.jdbi().useHandle(handle -> {
                    String url;
                    String product;
                    try {
                        var meta = handle.getConnection().getMetaData();
                        url = meta.getURL();
                        product = meta.getDatabaseProductName();
                    } catch (SQLException e) {
                        throw new ConnectionException(e);
                    }
                    Dialect detected = Dialects.forConnection(url, product);
                    source.sessionSetup().use(detected.sessionSetup(config));
                    identity.detected(detected, url);
                }));
    }
}
