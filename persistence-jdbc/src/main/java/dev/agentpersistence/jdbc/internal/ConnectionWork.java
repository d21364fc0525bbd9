package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** Statements run on a connection the caller owns, for their effect. */
@FunctionalInterface
public interface ConnectionWork {
    /** Runs the statements on {@code connection}. */
    void run(Connection connection) throws SQLException;
}
