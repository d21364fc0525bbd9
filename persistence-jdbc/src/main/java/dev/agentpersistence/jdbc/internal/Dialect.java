package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

/** What differs between the supported databases: DDL, locking, error codes and connection set-up. */
public interface Dialect {

    /** The database's name for messages: {@code PostgreSQL}, {@code SQLite}, … */
    String name();

    /** Column types and table options for the schema. */
    SchemaDdl ddl();

    /** Whether DDL takes part in transactions, so a migration and its version row commit together. */
    boolean transactionalDdl();

    /**
     * Takes the lock that keeps two processes from migrating this prefix at once. With transactional DDL the connection
     * is inside the migration's transaction and the lock ends with it; otherwise it is a session lock released by
     * {@link #unlockSchema}. May do nothing when the database serializes schema changes itself.
     */
    void lockSchema(Connection connection, Tables tables, JdbcStorageConfig config) throws SQLException;

    /** Releases a session lock taken by {@link #lockSchema}. */
    default void unlockSchema(Connection connection, Tables tables) throws SQLException {}

    /**
     * What ends a read whose rows stay locked until the transaction ends, so no other transaction changes or deletes
     * them meanwhile: {@code " FOR UPDATE"} by default.
     */
    default String lockingRead() {
        return " FOR UPDATE";
    }

    /**
     * What ends a read that locks its rows like {@link #lockingRead()} but passes over rows another transaction has
     * locked ({@code " FOR UPDATE SKIP LOCKED"} on PostgreSQL and MariaDB), so that concurrent claimers of queue items
     * take different ones; the default waits for them instead.
     */
    default String skippingLockedRead() {
        return lockingRead();
    }

    /** Whether all writes of one provider must go through one lock (SQLite allows a single writer). */
    default boolean serializesWrites() {
        return false;
    }

    /**
     * One statement that stores a history segment, or only sets the write time of one with the same key, with the
     * parameters {@code (agent_id, segment_id, written_at, content)}; empty where the database has none (then a save
     * sets the time and inserts when no row changed).
     */
    default java.util.Optional<String> segmentUpsert(Tables tables) {
        return java.util.Optional.empty();
    }

    /** How a save's rows are written; {@link SaveForm#STATEMENTS} unless the database can do better. */
    default SaveForm saveForm() {
        return SaveForm.STATEMENTS;
    }

    /**
     * Whether {@code e} says the server does not take saves in {@link #saveForm()} at all (a server mode or a driver
     * setting that refuses its syntax), so that saves fall back to {@link SaveForm#STATEMENTS}.
     */
    default boolean refusesSaveForm(SQLException e) {
        return false;
    }

    /**
     * Whether saves and checkpoint reads keep their prepared statements per connection: worth it where compiling a
     * statement costs about as much as running it (an embedded database) and no network failure has to reach the pool
     * through its statement wrappers.
     */
    default boolean keepsPreparedStatements() {
        return false;
    }

    /** Adds the dialect's settings to a pool the provider creates itself. */
    default void configurePool(HikariConfig pool, JdbcStorageConfig config) {}

    /**
     * Configures a pool whose connections only read: creates nothing (no file, no directory). Default: the pool of
     * {@link #configurePool} with read-only connections.
     *
     * @throws dev.agentpersistence.StorageNotFoundException when the database is a file that does not exist
     */
    default void configureReadOnlyPool(HikariConfig pool, JdbcStorageConfig config) {
        configurePool(pool, config);
        pool.setReadOnly(true);
    }

    /** Statements to run on every connection of a data source the application supplied. */
    default List<String> sessionSetup(JdbcStorageConfig config) {
        return List.of();
    }

    /**
     * The largest statement the server accepts, in bytes, read on {@code connection}; empty when the database has no
     * limit a checkpoint document could reach.
     */
    default OptionalLong maxStatementBytes(Connection connection) throws SQLException {
        return OptionalLong.empty();
    }

    /** How many bytes {@code value} takes in a statement sent to the server. */
    default long statementBytes(byte[] value) {
        return value.length;
    }

    /** The server refused a statement for exceeding {@link #maxStatementBytes}. */
    default boolean isStatementTooLarge(SQLException e) {
        return false;
    }

    /** A duplicate primary key or unique index entry. */
    boolean isUniqueViolation(SQLException e);

    /** A failure that a retry of the whole operation is expected to resolve: deadlock, serialization, busy. */
    default boolean isTransient(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** The connection or the server is gone, or the server refuses connections for now. */
    default boolean isConnectionFailure(SQLException e) {
        return SqlStates.isConnectionFailure(e);
    }
}
