package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How history segment rows are written, by a segment put and by a save that stores its segments with its record: a
 * segment stored unless its key exists, its write time set either way; with the dialect's upsert one batch, else a
 * touch and, where it changed no row, an insert (a duplicate key then means another writer inserted it meanwhile).
 */
final class SegmentRows {
    private final Supplier<Optional<String>> upsertSql;
    private final String touchSql;
    private final String insertSql;

    /** @param upsertSql the dialect's upsert, asked for at the first write (the dialect is known once connected) */
    SegmentRows(Tables tables, Supplier<Optional<String>> upsertSql) {
        Objects.requireNonNull(tables, "tables");
        this.upsertSql = Objects.requireNonNull(upsertSql, "upsertSql");
        this.touchSql =
                "UPDATE " + tables.historySegments() + " SET written_at = ? WHERE agent_id = ? AND segment_id = ?";
        this.insertSql = "INSERT INTO " + tables.historySegments()
                + " (agent_id, segment_id, written_at, content) VALUES (?, ?, ?, ?)";
    }

    /** Whether one segment is written with a single statement (the dialect has an upsert). */
    boolean oneStatement() {
        return upsertSql.get().isPresent();
    }

    /** Writes {@code contents}, segment id to bytes, of {@code agentId} with write time {@code writtenAt}. */
    void put(Connection connection, String agentId, Map<String, byte[]> contents, long writtenAt) throws SQLException {
        Optional<String> upsertText = upsertSql.get();
        if (upsertText.isPresent()) {
            try (PreparedStatement upsert = connection.prepareStatement(upsertText.get())) {
                for (var segment : contents.entrySet()) {
                    bindRow(upsert, agentId, segment.getKey(), writtenAt, segment.getValue());
                    upsert.addBatch();
                }
                upsert.executeBatch();
            }
            return;
        }
        try (PreparedStatement touch = connection.prepareStatement(touchSql);
                PreparedStatement insert = connection.prepareStatement(insertSql)) {
            for (var segment : contents.entrySet()) {
                touch.setLong(1, writtenAt);
                touch.setString(2, agentId);
                touch.setString(3, segment.getKey());
                if (touch.executeUpdate() == 0) {
                    bindRow(insert, agentId, segment.getKey(), writtenAt, segment.getValue());
                    insert.executeUpdate();
                }
            }
        }
    }

    private static void bindRow(
            PreparedStatement statement, String agentId, String segmentId, long writtenAt, byte[] content)
            throws SQLException {
        statement.setString(1, agentId);
        statement.setString(2, segmentId);
        statement.setLong(3, writtenAt);
        statement.setBytes(4, content);
    }
}
