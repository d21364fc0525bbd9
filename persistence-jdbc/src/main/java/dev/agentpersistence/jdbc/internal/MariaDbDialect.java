package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * MariaDB and MySQL (InnoDB): DDL commits implicitly, so migrations are idempotent and serialized by a named
 * {@code GET_LOCK}. Strings use a binary no-pad collation so ids compare exactly (case, accents and trailing spaces all
 * count). A statement larger than the server's {@code max_allowed_packet} is refused and the connection dropped, so
 * saves check the size first.
 */
final class MariaDbDialect implements Dialect {
    @Override
    public java.util.Optional<String> segmentUpsert(Tables tables) {
        return java.util.Optional.of(segmentUpsert(tables, 1));
    }

    /** The upsert of {@code rows} segment rows: each stored unless its key exists, its write time set either way. */
    static String segmentUpsert(Tables tables, int rows) {
        var sql = new StringBuilder("INSERT INTO ")
                .append(tables.historySegments())
                .append(" (agent_id, segment_id, written_at, content) VALUES ");
        for (int n = 0; n < rows; n++) {
            sql.append(n == 0 ? "" : ", ").append("(?, ?, ?, ?)");
        }
        return sql.append(" ON DUPLICATE KEY UPDATE written_at = VALUES(written_at)")
                .toString();
    }

    private static final int DUPLICATE_KEY = 1062;
    private static final int DUPLICATE_KEY_WITH_NAME = 1586;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK = 1213;
    private static final int PACKET_TOO_LARGE = 1153;
    /** A statement the binary protocol cannot prepare (a compound statement, with {@code useServerPrepStmts}). */
    private static final int UNSUPPORTED_IN_PREPARED = 1295;

    private static final int PARSE_ERROR = 1064;
    private static final String PACKET_SETTING = "max_allowed_packet";

    private final String name;
    private final SchemaDdl ddl;
    private final boolean compoundStatements;

    private MariaDbDialect(String name, String collation, boolean compoundStatements) {
        this.name = name;
        this.compoundStatements = compoundStatements;
        this.ddl = new SchemaDdl(
                "VARCHAR(256)",
                "MEDIUMBLOB",
                "LONGBLOB",
                " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=" + collation,
                true,
                false);
    }

    /** MariaDB 10.6 and later. */
    static MariaDbDialect mariaDb() {
        return new MariaDbDialect("MariaDB", "utf8mb4_nopad_bin", true);
    }

    /** MySQL 8 and later. */
    static MariaDbDialect mySql() {
        return new MariaDbDialect("MySQL", "utf8mb4_0900_bin", false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SchemaDdl ddl() {
        return ddl;
    }

    /** Compound statements ({@code BEGIN NOT ATOMIC}) on MariaDB; MySQL has none outside stored programs. */
    @Override
    public SaveForm saveForm() {
        return compoundStatements ? SaveForm.BLOCK : SaveForm.STATEMENTS;
    }

    /**
     * A compound statement refused: prepared by the server ({@code useServerPrepStmts}), or a mode where it does not
     * parse.
     */
    @Override
    public boolean refusesSaveForm(SQLException e) {
        return compoundStatements && (e.getErrorCode() == UNSUPPORTED_IN_PREPARED || e.getErrorCode() == PARSE_ERROR);
    }

    @Override
    public boolean transactionalDdl() {
        return false;
    }

    @Override
    public void lockSchema(Connection connection, Tables tables, JdbcStorageConfig config) throws SQLException {
        long seconds = Math.max(10, config.connectionTimeout().toSeconds() * 6);
        Optional<Long> got = Sql.number(connection, "SELECT GET_LOCK(?, ?)", tables.lockName(), seconds);
        if (got.isEmpty() || got.get() != 1) {
            throw new PersistenceException("Could not take the schema lock '" + tables.lockName() + "' within "
                    + seconds + "s; another process may be migrating the same tables");
        }
    }

    @Override
    public void unlockSchema(Connection connection, Tables tables) throws SQLException {
        Sql.number(connection, "SELECT RELEASE_LOCK(?)", tables.lockName());
    }

    @Override
    public void configurePool(HikariConfig pool, JdbcStorageConfig config) {
        pool.addDataSourceProperty(
                "connectTimeout", Long.toString(config.connectionTimeout().toMillis()));
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return e.getErrorCode() == DUPLICATE_KEY || e.getErrorCode() == DUPLICATE_KEY_WITH_NAME;
    }

    @Override
    public boolean isTransient(SQLException e) {
        return e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT || Dialect.super.isTransient(e);
    }

    @Override
    public OptionalLong maxStatementBytes(Connection connection) throws SQLException {
        Optional<Long> limit = Sql.number(connection, "SELECT @@max_allowed_packet");
        return limit.isEmpty() ? OptionalLong.empty() : OptionalLong.of(limit.get());
    }

    /** The bytes plus one backslash per byte the driver escapes in its text protocol ({@code NUL ' " \}). */
    @Override
    public long statementBytes(byte[] value) {
        long size = value.length;
        for (byte b : value) {
            if (b == 0 || b == '\'' || b == '"' || b == '\\') {
                size++;
            }
        }
        return size;
    }

    @Override
    public boolean isStatementTooLarge(SQLException e) {
        if (e.getErrorCode() == PACKET_TOO_LARGE) {
            return true;
        }
        String message = e.getMessage();
        return message != null
                && message.contains(PACKET_SETTING)
                && ("08S01".equals(e.getSQLState()) || SqlStates.isConnectionFailure(e));
    }

    @Override
    public String skippingLockedRead() {
        return " FOR UPDATE SKIP LOCKED";
    }
}
