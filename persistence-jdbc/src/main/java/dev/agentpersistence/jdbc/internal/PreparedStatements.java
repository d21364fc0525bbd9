package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Where the statements of saves and checkpoint reads come from. On an embedded database (SQLite) compiling a statement
 * cost as much as running it, so the statements are kept per physical connection of the provider's own pool, at most
 * {@value #PER_CONNECTION} texts each (the least recently used one is closed), and reused by whoever borrows that
 * connection next; a pool lends a connection to one thread at a time. Elsewhere every call prepares its statement and
 * closes it after use. Statements of closed connections are forgotten when the next new connection shows up, so at most
 * one closed connection's statements are held.
 */
final class PreparedStatements {
    static final int PER_CONNECTION = 16;

    private final BooleanSupplier keep;
    /** Statements by physical connection; guarded by itself. */
    private final Map<Connection, Map<String, PreparedStatement>> kept = new HashMap<>();

    /** @param keep whether statements are kept, asked on every call (the dialect may be detected late) */
    PreparedStatements(BooleanSupplier keep) {
        this.keep = keep;
    }

    /** A statement of {@code sql} on {@code connection}; hand it back with {@link #release}. */
    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        if (!keep.getAsBoolean()) {
            return connection.prepareStatement(sql);
        }
        Connection physical = Connections.physical(connection);
        Map<String, PreparedStatement> statements = statementsOf(physical);
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = physical.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /**
     * Takes back a statement of {@link #prepare}: closes it unless it is kept; a kept one that failed is closed and
     * forgotten, so the next read prepares it afresh.
     */
    void release(Connection connection, String sql, PreparedStatement statement, boolean failed) throws SQLException {
        if (!keep.getAsBoolean()) {
            if (failed) {
                closeQuietly(statement);
            } else {
                statement.close();
            }
            return;
        }
        if (failed) {
            statementsOf(Connections.physical(connection)).remove(sql, statement);
            closeQuietly(statement);
        }
    }

    /** How many connections have statements kept. */
    int connectionsHeld() {
        synchronized (kept) {
            return kept.size();
        }
    }

    /** Closes every kept statement and forgets them. */
    void clear() {
        synchronized (kept) {
            kept.values().forEach(statements -> statements.values().forEach(PreparedStatements::closeQuietly));
            kept.clear();
        }
    }

    private Map<String, PreparedStatement> statementsOf(Connection physical) {
        synchronized (kept) {
            Map<String, PreparedStatement> statements = kept.get(physical);
            if (statements == null) {
                kept.keySet().removeIf(PreparedStatements::isClosed);
                statements = new LinkedHashMap<>(PER_CONNECTION, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                        if (size() > PER_CONNECTION) {
                            closeQuietly(eldest.getValue());
                            return true;
                        }
                        return false;
                    }
                };
                kept.put(physical, statements);
            }
            return statements;
        }
    }

    private static boolean isClosed(Connection connection) {
        try {
            return connection.isClosed();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException | RuntimeException ignored) {
            // the statement or its connection is already broken
        }
    }
}
