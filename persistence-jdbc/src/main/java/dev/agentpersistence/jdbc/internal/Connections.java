package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** The physical connection under a pool's proxy. */
final class Connections {
    private Connections() {}

    /** The connection {@code connection} wraps, or itself when it wraps none. */
    static Connection physical(Connection connection) {
        try {
            return connection.isWrapperFor(Connection.class) ? connection.unwrap(Connection.class) : connection;
        } catch (SQLException | RuntimeException e) {
            return connection;
        }
    }
}
