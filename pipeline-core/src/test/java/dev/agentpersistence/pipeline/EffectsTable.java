package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.KeyedTool;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real SQLite table the journal tests' tools write to: {@code insertRow} adds one row per call tagged with the call's
 * idempotency key, {@code upsertRow} (declared idempotent) writes the row of its key, and {@code deleteRows} (the
 * inverse of both) deletes the rows of a key.
 */
final class EffectsTable implements AutoCloseable {
    private final Connection connection;

    EffectsTable(Path file) throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (var statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 10000");
            statement.execute("CREATE TABLE IF NOT EXISTS effects (idem_key TEXT PRIMARY KEY, node TEXT NOT NULL, "
                    + "attempt INTEGER NOT NULL, call_no INTEGER NOT NULL)");
        }
    }

    /** One row of the table. */
    record Row(String node, int attempt, int call) {}

    KeyedTool insertRow() {
        return KeyedTool.of("insertRow", (args, key) -> write("INSERT INTO effects VALUES (?, ?, ?, ?)", args, key));
    }

    KeyedTool upsertRow() {
        return KeyedTool.of(
                "upsertRow",
                true,
                (args, key) -> write(
                        "INSERT INTO effects VALUES (?, ?, ?, ?) "
                                + "ON CONFLICT(idem_key) DO UPDATE SET attempt = excluded.attempt",
                        args,
                        key));
    }

    KeyedTool deleteRows() {
        return KeyedTool.of("deleteRows", true, (args, key) -> {
            try (var delete = connection.prepareStatement("DELETE FROM effects WHERE idem_key = ?")) {
                delete.setString(1, key);
                return TextNode.valueOf("deleted " + delete.executeUpdate());
            }
        });
    }

    List<Row> rows() throws SQLException {
        var rows = new ArrayList<Row>();
        try (var statement = connection.createStatement();
                var result =
                        statement.executeQuery("SELECT node, attempt, call_no FROM effects ORDER BY node, call_no")) {
            while (result.next()) {
                rows.add(new Row(result.getString(1), result.getInt(2), result.getInt(3)));
            }
        }
        return rows;
    }

    private JsonNode write(String sql, JsonNode args, String key) throws SQLException {
        try (var insert = connection.prepareStatement(sql)) {
            insert.setString(1, key);
            insert.setString(2, args.path("node").asText());
            insert.setInt(3, args.path("attempt").asInt());
            insert.setInt(4, args.path("call").asInt());
            insert.executeUpdate();
        }
        return TextNode.valueOf("written");
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
