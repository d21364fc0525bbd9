package dev.agentpersistence.jdbc.internal;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.Set;

/** Classification of {@link SQLException}s shared by the dialects. */
public final class SqlStates {
    /** PostgreSQL: admin shutdown, crash shutdown, cannot connect now, too many connections. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    /** MariaDB and MySQL: access denied for user, access denied to database, access denied without a password. */
    private static final Set<Integer> MARIADB_REFUSED_CREDENTIALS = Set.of(1045, 1044, 1698);
    /** MariaDB and MySQL: unknown database. */
    private static final int MARIADB_UNKNOWN_DATABASE = 1049;

    private SqlStates() {}

    /**
     * Whether the server refused the credentials: SQLState class 28 (invalid authorization: PostgreSQL's 28000 and
     * 28P01, H2's 28000) or MariaDB's and MySQL's access-denied error codes.
     */
    public static boolean refusesCredentials(SQLException e) {
        String state = e.getSQLState();
        if (state != null && state.startsWith("28")) {
            return true;
        }
        return mariaDbState(state) && MARIADB_REFUSED_CREDENTIALS.contains(e.getErrorCode());
    }

    /** Whether the database named in the URL does not exist: PostgreSQL's 3D000 or MariaDB's and MySQL's 1049. */
    public static boolean isUnknownDatabase(SQLException e) {
        String state = e.getSQLState();
        return "3D000".equals(state) || (mariaDbState(state) && e.getErrorCode() == MARIADB_UNKNOWN_DATABASE);
    }

    /** The SQLStates MariaDB and MySQL give their access and unknown-database errors (SQLite's codes have none). */
    private static boolean mariaDbState(String state) {
        return "28000".equals(state) || "42000".equals(state) || "HY000".equals(state);
    }

    /** The first {@link SQLException} in {@code failure}'s cause chain. */
    public static Optional<SQLException> find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return Optional.of(sql);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.empty();
    }

    /**
     * The innermost {@link SQLException} in {@code failure}'s cause chain: the driver's own error when a pool wrapped
     * it (a HikariCP timeout keeps the last connection failure as its cause).
     */
    public static Optional<SQLException> innermost(Throwable failure) {
        SQLException found = null;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                found = sql;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.ofNullable(found);
    }

    /** SQLState class 08, the JDBC connection exception types, server shutdown states, or an I/O error as cause. */
    public static boolean isConnectionFailure(SQLException e) {
        if (e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLRecoverableException) {
            return true;
        }
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || UNAVAILABLE_STATES.contains(state))) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
            if (t instanceof SQLException nested && nested != e && isConnectionFailure(nested)) {
                return true;
            }
        }
        return false;
    }
}
