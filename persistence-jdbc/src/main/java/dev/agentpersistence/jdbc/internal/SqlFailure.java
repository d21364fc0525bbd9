package dev.agentpersistence.jdbc.internal;

import java.sql.SQLException;

/**
 * A database call that failed, carried unchecked through the operation's lambdas to {@link Retrier}, which classifies
 * it ({@link FailureKind}) and gives the caller the library's exception.
 */
final class SqlFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean connecting;

    private SqlFailure(SQLException cause, boolean connecting) {
        super(cause.getMessage(), cause);
        this.connecting = connecting;
    }

    /** No connection could be obtained. */
    static SqlFailure connecting(SQLException cause) {
        return new SqlFailure(cause, true);
    }

    /** A statement failed on a connection that was obtained. */
    static SqlFailure statement(SQLException cause) {
        return new SqlFailure(cause, false);
    }

    /** Whether the failure happened while obtaining a connection. */
    boolean connecting() {
        return connecting;
    }
}
