package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * H2 2.x: DDL commits implicitly and H2 serializes schema changes itself, so migrations rely on idempotent {@code IF
 * NOT EXISTS} statements and the migrator's retry.
 */
final class H2Dialect implements Dialect {
    private static final SchemaDdl DDL = new SchemaDdl("VARCHAR(256)", "VARBINARY", "BLOB", "", false, false);
    /** Connection broken, database closed, database closed at VM shutdown. */
    private static final Set<String> CLOSED_STATES = Set.of("90067", "90098", "90121");

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public SchemaDdl ddl() {
        return DDL;
    }

    @Override
    public boolean transactionalDdl() {
        return false;
    }

    @Override
    public void lockSchema(Connection connection, Tables tables, JdbcStorageConfig config) {
        // H2 takes an exclusive schema lock for each DDL statement.
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /**
     * Lock timeouts, and 23503: a deletion of checkpoints whose metadata rows a save committed between the deletion's
     * statements ({@link CheckpointStatements#deleteBefore}). The deletion rolled back whole, so it is run again.
     */
    @Override
    public boolean isTransient(SQLException e) {
        return "HYT00".equals(e.getSQLState()) || "23503".equals(e.getSQLState()) || Dialect.super.isTransient(e);
    }

    @Override
    public boolean isConnectionFailure(SQLException e) {
        return CLOSED_STATES.contains(e.getSQLState()) || Dialect.super.isConnectionFailure(e);
    }
}
