package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.SegmentInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The SQL of the history segment table, run on a connection the caller owns. Reads of several segments are one
 * {@code IN} query per {@value #BATCH} ids; ids and values are always bound.
 */
public final class SegmentStatements {
    /** Ids per {@code IN} list, well below every database's parameter limit. */
    static final int BATCH = 500;

    private final Tables tables;

    public SegmentStatements(Tables tables) {
        this.tables = Objects.requireNonNull(tables, "tables");
    }

    /** The contents of the given segments that exist. */
    public Map<String, byte[]> select(Connection connection, String agentId, Collection<String> segmentIds)
            throws SQLException {
        var found = new HashMap<String, byte[]>();
        var ids = List.copyOf(segmentIds);
        for (int from = 0; from < ids.size(); from += BATCH) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + BATCH));
            Sql.list(
                            connection,
                            "SELECT segment_id, content FROM " + tables.historySegments()
                                    + " WHERE agent_id = ? AND segment_id IN (" + Sql.placeholders(batch.size()) + ")",
                            rows -> Map.entry(rows.getString(1), rows.getBytes(2)),
                            Sql.values(agentId, batch))
                    .forEach(entry -> found.put(entry.getKey(), entry.getValue()));
        }
        return found;
    }

    /** The agent's segments with their write times, in no particular order. */
    public List<SegmentInfo> list(Connection connection, String agentId) throws SQLException {
        return Sql.list(
                connection,
                "SELECT segment_id, written_at FROM " + tables.historySegments() + " WHERE agent_id = ?",
                rows -> new SegmentInfo(rows.getString(1), Instant.ofEpochMilli(rows.getLong(2))),
                agentId);
    }

    /** Deletes the given segments written before {@code writtenBefore} (epoch milliseconds); returns how many. */
    public int delete(Connection connection, String agentId, Collection<String> segmentIds, long writtenBefore)
            throws SQLException {
        var ids = List.copyOf(segmentIds);
        int deleted = 0;
        for (int from = 0; from < ids.size(); from += BATCH) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + BATCH));
            deleted += Sql.update(
                    connection,
                    "DELETE FROM " + tables.historySegments() + " WHERE agent_id = ? AND segment_id IN ("
                            + Sql.placeholders(batch.size()) + ") AND written_at < ?",
                    Sql.values(agentId, batch, writtenBefore));
        }
        return deleted;
    }

    /** Every agent with at least one segment, in no particular order. */
    public List<String> agentIds(Connection connection) throws SQLException {
        return Sql.list(
                connection, "SELECT DISTINCT agent_id FROM " + tables.historySegments(), rows -> rows.getString(1));
    }
}
