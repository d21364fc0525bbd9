package dev.agentpersistence.benchmarks.raw;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One JDBC connection (autocommit) with prepared statements: {@code INSERT} of one row per write, {@code SELECT} by
 * primary key per read. Not thread-safe (benchmarks call it from one thread).
 */
public final class RawJdbcStore implements RawStore {
    private final Connection connection;
    private final PreparedStatement insert;
    private final PreparedStatement select;
    private final PreparedStatement delete;

    /**
     * @param url JDBC URL with credentials
     * @param table the table, created when missing
     * @param columns its column definitions: {@code (k ... PRIMARY KEY, v ...)}
     * @param sqliteWal whether to switch an SQLite database to WAL as the provider does
     */
    public RawJdbcStore(String url, String table, String columns, boolean sqliteWal) {
        try {
            this.connection = DriverManager.getConnection(url);
            try (Statement statement = connection.createStatement()) {
                if (sqliteWal) {
                    statement.execute("PRAGMA journal_mode=WAL");
                    statement.execute("PRAGMA busy_timeout=10000");
                }
                statement.execute("CREATE TABLE IF NOT EXISTS " + table + " " + columns);
            }
            connection.setAutoCommit(true);
            this.insert = connection.prepareStatement("INSERT INTO " + table + " (k, v) VALUES (?, ?)");
            this.select = connection.prepareStatement("SELECT v FROM " + table + " WHERE k = ?");
            this.delete = connection.prepareStatement("DELETE FROM " + table + " WHERE k = ?");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot open the raw table " + table, e);
        }
    }

    @Override
    public void write(String key, byte[] value) {
        try {
            insert.setString(1, key);
            insert.setBytes(2, value);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] read(String key) {
        try {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("No row " + key);
                }
                return rows.getBytes(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void delete(List<String> keys) {
        try {
            connection.setAutoCommit(false);
            for (String key : keys) {
                delete.setString(1, key);
                delete.addBatch();
            }
            delete.executeBatch();
            connection.commit();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
