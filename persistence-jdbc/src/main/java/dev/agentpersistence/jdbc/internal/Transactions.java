package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** One transaction on a plain connection, left in autocommit afterwards as it was found. */
final class Transactions {
    private Transactions() {}

    /**
     * Runs {@code work} and commits, or rolls back and rethrows. A failure to roll back or to restore autocommit is
     * added to the original failure, never thrown instead of it.
     */
    static void run(Connection connection, ConnectionWork work) throws SQLException {
        call(connection, c -> {
            work.run(c);
            return null;
        });
    }

    /** As {@link #run}, returning what {@code work} returns. */
    static <T> T call(Connection connection, ConnectionCall<T> work) throws SQLException {
        connection.setAutoCommit(false);
        Throwable failure = null;
        try {
            T answer = work.call(connection);
            connection.commit();
            return answer;
        } catch (SQLException | RuntimeException | Error e) {
            failure = e;
            try {
                connection.rollback();
            } catch (SQLException | RuntimeException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException | RuntimeException restore) {
                if (failure == null) {
                    throw restore;
                }
                failure.addSuppressed(restore);
            }
        }
    }
}
