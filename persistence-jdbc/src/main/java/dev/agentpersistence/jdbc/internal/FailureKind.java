package dev.agentpersistence.jdbc.internal;

import java.sql.SQLException;
import java.util.Optional;

/** How the provider reacts to a failed database call. */
enum FailureKind {
    /** The server refused a statement over its size limit: never retried. */
    STATEMENT_TOO_LARGE,
    /** A duplicate key: the save met an existing checkpoint. */
    UNIQUE_VIOLATION,
    /** Deadlock, serialization failure or busy database: retry the whole operation. */
    TRANSIENT,
    /** An established connection broke: an idempotent operation may retry on a fresh one. */
    CONNECTION_LOST,
    /** No connection could be obtained: the database is down or unreachable. */
    UNAVAILABLE,
    /** The server refused the credentials (wrong password, unknown user or role, no access): never retried. */
    REFUSED_CREDENTIALS,
    /** The database named in the URL does not exist: never retried. */
    UNKNOWN_DATABASE,
    /** Anything else: a bug, a permission or a schema problem. */
    OTHER;

    /** Classifies {@code failure} with {@code dialect}'s error codes. */
    static FailureKind of(Throwable failure, Dialect dialect) {
        Optional<SQLException> found = SqlStates.find(failure);
        boolean acquiring = failure instanceof SqlFailure sql && sql.connecting();
        if (found.isEmpty()) {
            return acquiring ? UNAVAILABLE : OTHER;
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException sql && SqlStates.refusesCredentials(sql)) {
                return REFUSED_CREDENTIALS;
            }
            if (t instanceof SQLException sql && SqlStates.isUnknownDatabase(sql)) {
                return UNKNOWN_DATABASE;
            }
        }
        if (dialect != null && tooLarge(failure, dialect)) {
            return STATEMENT_TOO_LARGE;
        }
        SQLException sql = found.get();
        if (dialect != null && dialect.isUniqueViolation(sql)) {
            return UNIQUE_VIOLATION;
        }
        if (dialect != null && dialect.isTransient(sql)) {
            return TRANSIENT;
        }
        if (acquiring) {
            return UNAVAILABLE;
        }
        boolean broken = dialect == null ? SqlStates.isConnectionFailure(sql) : dialect.isConnectionFailure(sql);
        return broken ? CONNECTION_LOST : OTHER;
    }

    /** Whether any {@link SQLException} in the cause chain is the server refusing an oversized statement. */
    private static boolean tooLarge(Throwable failure, Dialect dialect) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && dialect.isStatementTooLarge(sql)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
