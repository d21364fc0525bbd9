package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.StorageUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.h2.jdbcx.JdbcConnectionPool;

/** Plain JDBC over a pool of H2 connections: each call runs on a connection of its own. */
final class Sql implements AutoCloseable {
    /** The SQL state of a duplicate key. */
    static final String DUPLICATE_KEY = "23505";

    private final JdbcConnectionPool pool;
    private final String url;

    Sql(String url) {
        this.url = url;
        this.pool = JdbcConnectionPool.create(url, "", "");
    }

    /** Runs {@code work} on a pooled connection; a failing database is a {@link StorageUnavailableException}. */
    <T> T run(String operation, Work<T> work) {
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new StorageUnavailableException(operation + " failed at " + url + ": " + e.getMessage(), e);
        }
    }

    /** The first column of every row of {@code sql}, sorted. */
    List<String> strings(String operation, String sql, Object... values) {
        return run(operation, c -> {
            var found = new ArrayList<String>();
            try (ResultSet rows = query(c, sql, values)) {
                while (rows.next()) {
                    found.add(rows.getString(1));
                }
            }
            Collections.sort(found);
            return found;
        });
    }

    /** Runs a query; closing the result set closes its statement. */
    static ResultSet query(Connection connection, String sql, Object... values) throws SQLException {
        PreparedStatement statement = bind(connection.prepareStatement(sql), values);
        statement.closeOnCompletion();
        return statement.executeQuery();
    }

    /** Runs an update; returns its row count. */
    static int update(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = bind(connection.prepareStatement(sql), values)) {
            return statement.execute() ? 0 : statement.getUpdateCount();
        }
    }

    private static PreparedStatement bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
        return statement;
    }

    @Override
    public void close() {
        pool.dispose();
    }

    @Override
    public String toString() {
        return url;
    }

    /** A unit of work on one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }
}
