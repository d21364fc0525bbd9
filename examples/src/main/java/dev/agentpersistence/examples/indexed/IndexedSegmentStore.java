package dev.agentpersistence.examples.indexed;

import static dev.agentpersistence.examples.indexed.Sql.query;
import static dev.agentpersistence.examples.indexed.Sql.update;

import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The segment area of {@link IndexedStorageBackend}: one row per segment, keyed by agent and segment id. */
final class IndexedSegmentStore implements HistorySegmentStore {
    static final String SCHEMA = "CREATE TABLE IF NOT EXISTS segments (agent_id VARCHAR NOT NULL,"
            + " segment_id VARCHAR NOT NULL, content VARBINARY NOT NULL, written_at BIGINT NOT NULL,"
            + " PRIMARY KEY (agent_id, segment_id))";
    private static final String TOUCH = "UPDATE segments SET written_at = ? WHERE agent_id = ? AND segment_id = ?";

    private final Sql sql;
    private final Clock clock;

    IndexedSegmentStore(Sql sql, Clock clock) {
        this.sql = sql;
        this.clock = clock;
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        sql.run("writing segment " + segmentId, c -> {
            long now = clock.millis();
            if (update(c, TOUCH, now, agentId, segmentId) == 0) {
                try {
                    update(c, "INSERT INTO segments VALUES (?, ?, ?, ?)", agentId, segmentId, content, now);
                } catch (SQLException e) {
                    if (!Sql.DUPLICATE_KEY.equals(e.getSQLState())) {
                        throw e;
                    }
                    update(c, TOUCH, now, agentId, segmentId); // another writer inserted it meanwhile
                }
            }
            return null;
        });
    }

    /** One query for all the ids (the contract asks for as few round trips as the store allows). */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        var found = new HashMap<String, byte[]>();
        if (segmentIds.isEmpty()) {
            return found;
        }
        String select = "SELECT segment_id, content FROM segments WHERE agent_id = ? AND segment_id IN ("
                + marks(segmentIds) + ")";
        return sql.run("reading segments of " + agentId, c -> {
            try (ResultSet rows = query(c, select, values(agentId, segmentIds))) {
                while (rows.next()) {
                    found.put(rows.getString(1), rows.getBytes(2));
                }
            }
            return found;
        });
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        return sql.run("listing segments of " + agentId, c -> {
            var infos = new ArrayList<SegmentInfo>();
            try (ResultSet rows = query(c, "SELECT segment_id, written_at FROM segments WHERE agent_id = ?", agentId)) {
                while (rows.next()) {
                    infos.add(new SegmentInfo(rows.getString(1), Instant.ofEpochMilli(rows.getLong(2))));
                }
            }
            return infos;
        });
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        if (segmentIds.isEmpty()) {
            return 0;
        }
        String delete = "DELETE FROM segments WHERE written_at < ? AND agent_id = ? AND segment_id IN ("
                + marks(segmentIds) + ")";
        var values = new ArrayList<Object>(List.of(writtenBefore.toEpochMilli()));
        values.addAll(List.of(values(agentId, segmentIds)));
        return sql.run("deleting segments of " + agentId, c -> update(c, delete, values.toArray()));
    }

    @Override
    public List<String> listSegmentAgents() {
        return sql.strings("listing segment agents", "SELECT DISTINCT agent_id FROM segments");
    }

    private static String marks(Collection<String> ids) {
        return String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
    }

    private static Object[] values(String agentId, Collection<String> ids) {
        var values = new ArrayList<Object>(ids.size() + 1);
        values.add(agentId);
        values.addAll(ids);
        return values.toArray();
    }
}
