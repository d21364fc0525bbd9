package dev.agentpersistence.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.KeyedTool;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real PostgreSQL table the fleet's tools write to: {@code insertRow} adds one row per call, keyed by the call's
 * idempotency key and naming the run, node, attempt and worker; its inverse {@code deleteRow} deletes the row of a key
 * and logs every undo (key, rows deleted, worker) in a second table, so a test can tell an attempt undone once from one
 * undone twice. One connection, used by one call at a time.
 */
final class FleetEffects implements AutoCloseable {
    /** The insert tool's name; its inverse is {@link #DELETE}. */
    static final String INSERT = "insertRow";

    static final String DELETE = "deleteRow";

    private final Connection connection;
    private final String effects;
    private final String undos;
    private final String worker;

    private FleetEffects(String url, String table, String worker) throws SQLException {
        this.connection = DriverManager.getConnection(url);
        this.effects = table;
        this.undos = table + "_undos";
        this.worker = worker;
    }

    /** Opens the tables named after {@code table} on {@code url} for tools run by {@code worker}. */
    static FleetEffects open(String url, String table, String worker) throws SQLException {
        return new FleetEffects(url, table, worker);
    }

    /** Creates both tables (fresh names per test). */
    synchronized FleetEffects create() throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + effects + " (idem_key TEXT PRIMARY KEY, run_id TEXT NOT NULL, "
                    + "node TEXT NOT NULL, attempt INTEGER NOT NULL, worker TEXT NOT NULL)");
            statement.execute("CREATE TABLE " + undos + " (id BIGSERIAL PRIMARY KEY, idem_key TEXT NOT NULL, "
                    + "deleted INTEGER NOT NULL, worker TEXT NOT NULL)");
        }
        return this;
    }

    /** Drops both tables. */
    synchronized void drop() throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + effects);
            statement.execute("DROP TABLE IF EXISTS " + undos);
        }
    }

    /** One row of the effects table. */
    record Row(String key, String runId, String node, int attempt, String worker) {}

    /** One undo: the key it was given, the rows it deleted, the worker that ran it. */
    record Undo(String key, int deleted, String worker) {}

    /** Inserts a row for the call's key; arguments {@code run}, {@code node}, {@code attempt}. */
    KeyedTool insertRow() {
        return KeyedTool.of(INSERT, (args, key) -> {
            synchronized (this) {
                try (var insert = connection.prepareStatement("INSERT INTO " + effects + " VALUES (?, ?, ?, ?, ?)")) {
                    insert.setString(1, key);
                    insert.setString(2, args.path("run").asText());
                    insert.setString(3, args.path("node").asText());
                    insert.setInt(4, args.path("attempt").asInt());
                    insert.setString(5, worker);
                    insert.executeUpdate();
                }
            }
            return TextNode.valueOf("inserted");
        });
    }

    /** The inverse of {@link #insertRow()}: deletes the row of the key (none when it never ran) and logs the undo. */
    KeyedTool deleteRow() {
        return KeyedTool.of(DELETE, true, (args, key) -> {
            synchronized (this) {
                int deleted;
                try (var delete = connection.prepareStatement("DELETE FROM " + effects + " WHERE idem_key = ?")) {
                    delete.setString(1, key);
                    deleted = delete.executeUpdate();
                }
                try (var log = connection.prepareStatement(
                        "INSERT INTO " + undos + " (idem_key, deleted, worker) VALUES (?, ?, ?)")) {
                    log.setString(1, key);
                    log.setInt(2, deleted);
                    log.setString(3, worker);
                    log.executeUpdate();
                }
                return TextNode.valueOf("deleted " + deleted);
            }
        });
    }

    synchronized List<Row> rows() throws SQLException {
        var rows = new ArrayList<Row>();
        try (var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT idem_key, run_id, node, attempt, worker FROM " + effects
                        + " ORDER BY run_id, node, attempt")) {
            while (result.next()) {
                rows.add(new Row(
                        result.getString(1),
                        result.getString(2),
                        result.getString(3),
                        result.getInt(4),
                        result.getString(5)));
            }
        }
        return rows;
    }

    synchronized List<Undo> undos() throws SQLException {
        var undone = new ArrayList<Undo>();
        try (var statement = connection.createStatement();
                var result =
                        statement.executeQuery("SELECT idem_key, deleted, worker FROM " + undos + " ORDER BY id")) {
            while (result.next()) {
                undone.add(new Undo(result.getString(1), result.getInt(2), result.getString(3)));
            }
        }
        return undone;
    }

    /** The arguments of an insert call. */
    static JsonNode arguments(String runId, String node, int attempt) {
        var args = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        args.put("run", runId);
        args.put("node", node);
        args.put("attempt", attempt);
        return args;
    }

    @Override
    public synchronized void close() throws SQLException {
        connection.close();
    }
}
