package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Statements run on a connection the caller owns, for their answer.
 *
 * @param <T> the answer
 */
@FunctionalInterface
public interface ConnectionCall<T> {
    /** Runs the statements on {@code connection} and returns their answer. */
    T call(Connection connection) throws SQLException;
}
