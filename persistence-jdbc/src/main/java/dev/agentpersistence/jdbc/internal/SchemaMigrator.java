package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
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

    /** Brings the schema up to the newest migration; returns the versions this call applied. */
    public List<Integer> migrate(Jdbi jdbi) {
        for (int attempt = 1; ; attempt++) {
            try {
                if (dialect.transactionalDdl()) {
                    return jdbi.inTransaction(this::apply);
                }
                return jdbi.withHandle(handle -> {
                    dialect.lockSchema(handle, tables, config);
                    try {
                        return applyEach(handle);
                    } finally {
                        dialect.unlockSchema(handle, tables);
                    }
                });
            } catch (JdbiException e) {
                Optional<SQLException> sql = SqlStates.find(e);
                boolean retry = attempt < MAX_ATTEMPTS && sql.isPresent() && !dialect.isConnectionFailure(sql.get());
                if (!retry) {
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

    private List<Integer> apply(Handle handle) {
        dialect.lockSchema(handle, tables, config);
        return applyEach(handle);
    }

    private List<Integer> applyEach(Handle handle) {
        handle.execute(dialect.ddl().schemaVersionTable(tables));
        Set<Integer> applied = new HashSet<>(handle.createQuery("SELECT version FROM " + tables.schemaVersion())
                .map((rs, ctx) -> rs.getInt(1))
                .list());
        var done = new ArrayList<Integer>();
        for (Migration migration : migrations) {
            if (applied.contains(migration.version())) {
                continue;
            }
            for (String statement : migration.statements()) {
                handle.execute(statement);
            }
            if (recordVersion(handle, migration)) {
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
    private boolean recordVersion(Handle handle, Migration migration) {
        try {
            handle.createUpdate("INSERT INTO " + tables.schemaVersion() + " (version, description) VALUES (:v, :d)")
                    .bind("v", migration.version())
                    .bind("d", migration.description())
                    .execute();
            return true;
        } catch (JdbiException e) {
            Optional<SQLException> sql = SqlStates.find(e);
            if (!dialect.transactionalDdl() && sql.isPresent() && dialect.isUniqueViolation(sql.get())) {
                return false;
            }
            throw e;
        }
    }
}
