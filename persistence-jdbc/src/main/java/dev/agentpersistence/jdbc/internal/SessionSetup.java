package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The dialect's session statements for connections of an application's data source, run once per physical connection (a
 * pool hands the same one out again and again; the settings they make last as long as it does).
 */
final class SessionSetup {
    private volatile List<String> statements = List.of();
    /** The physical connections the statements already ran on; weak, so closed ones go. */
    private final Map<Connection, Boolean> prepared = Collections.synchronizedMap(new WeakHashMap<>());

    /** Sets the statements to run (once the dialect is known). */
    void use(List<String> setup) {
        statements = List.copyOf(setup);
    }

    /** Runs the statements on {@code connection} unless they already ran on its physical connection. */
    void apply(Connection connection) throws SQLException {
        List<String> setup = statements;
        if (setup.isEmpty()) {
            return;
        }
        Connection physical = Connections.physical(connection);
        if (prepared.containsKey(physical)) {
            return;
        }
        for (String statement : setup) {
            Sql.execute(connection, statement);
        }
        prepared.put(physical, Boolean.TRUE);
    }
}
