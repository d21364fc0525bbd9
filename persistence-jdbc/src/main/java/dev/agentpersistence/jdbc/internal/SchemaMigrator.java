package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the missing {@link Migration}s and records each in the schema version table.
 *
 * <p>Safe when several processes start at once: on databases with transactional DDL (PostgreSQL, SQLite) each run is
 * one transaction under the dialect's lock, so the DDL and its version row commit together or not at all. Elsewhere
 * (MariaDB/MySQL, H2) every statement is idempotent, the dialect's session lock serializes runs where it has one, a
 * version row that another process wrote first is accepted, and a run that collided is retried.
 */
public final class SchemaMigrator {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrator.class);
    private static final int MAX_ATTEMPTS = 5;

    private final Dialect dialect;
    private final Tables tables;
    private final JdbcStorageConfig config;
    private final List<Migration> migrations;

    public SchemaMigrator(Dialect dialect, Tables tables, JdbcStorageConfig config, List<Migration> migrations) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.config = Objects.requireNonNull(config, "config");
        this.migrations = List.copyOf(migrations);
    }

    /**
     * Brings the schema up to the newest migration on {@code connection}, which is in autocommit and stays so; returns
     * the versions this call applied.
     */
    public List<Integer> migrate(Connection connection) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                if (dialect.transactionalDdl()) {
                    return Transactions.call(connection, this::apply);
                }
                dialect.lockSchema(connection, tables, config);
                try {
                    return applyEach(connection);
                } finally {
                    dialect.unlockSchema(connection, tables);
                }
            } catch (SQLException e) {
                if (attempt >= MAX_ATTEMPTS || dialect.isConnectionFailure(e)) {
                    throw e;
                }
                LOG.debug(
                        "Schema migration of '{}' collided with another process (attempt {}): {}",
                        tables.prefix(),
                        attempt,
                        e.toString());
                RetryPause.pause(attempt);
            }
        }
    }

    private List<Integer> apply(Connection connection) throws SQLException {
        dialect.lockSchema(connection, tables, config);
        return applyEach(connection);
    }

    private List<Integer> applyEach(Connection connection) throws SQLException {
        Sql.execute(connection, dialect.ddl().schemaVersionTable(tables));
        Set<Integer> applied = new HashSet<>(
                Sql.list(connection, "SELECT version FROM " + tables.schemaVersion(), rows -> rows.getInt(1)));
        var done = new ArrayList<Integer>();
        for (Migration migration : migrations) {
            if (applied.contains(migration.version())) {
                continue;
            }
            for (String statement : migration.statements()) {
                Sql.execute(connection, statement);
            }
            if (recordVersion(connection, migration)) {
                done.add(migration.version());
                LOG.info(
                        "Applied schema migration {} ({}) to tables '{}*'",
                        migration.version(),
                        migration.description(),
                        tables.prefix());
            }
        }
        return List.copyOf(done);
    }

    /** Inserts the version row; {@code false} when another process recorded it first (non-transactional DDL only). */
    private boolean recordVersion(Connection connection, Migration migration) throws SQLException {
        try {
            Sql.update(
                    connection,
                    "INSERT INTO " + tables.schemaVersion() + " (version, description) VALUES (?, ?)",
                    migration.version(),
                    migration.description());
            return true;
        } catch (SQLException e) {
            if (!dialect.transactionalDdl() && dialect.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }
}
