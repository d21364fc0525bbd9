package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.SegmentInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * The SQL of the history segment table, run on a handle the caller owns. Reads of several segments are one {@code IN}
 * query per {@value #BATCH} ids; ids and values are always bound.
 */
public final class SegmentStatements {
    /** Ids per {@code IN} list, well below every database's parameter limit. */
    static final int BATCH = 500;

    private final Tables tables;

    public SegmentStatements(Tables tables) {
        this.tables = Objects.requireNonNull(tables, "tables");
    }

    /** The contents of the given segments that exist. */
    public Map<String, byte[]> select(Handle handle, String agentId, Collection<String> segmentIds) {
        var found = new HashMap<String, byte[]>();
        var ids = List.copyOf(segmentIds);
        for (int from = 0; from < ids.size(); from += BATCH) {
            handle.createQuery("SELECT segment_id, content FROM " + tables.historySegments()
                            + " WHERE agent_id = :agentId AND segment_id IN (<ids>)")
                    .bind("agentId", agentId)
                    .bindList("ids", ids.subList(from, Math.min(ids.size(), from + BATCH)))
                    .map((rs, ctx) -> Map.entry(rs.getString("segment_id"), rs.getBytes("content")))
                    .forEach(entry -> found.put(entry.getKey(), entry.getValue()));
        }
        return found;
    }

    /** The agent's segments with their write times, in no particular order. */
    public List<SegmentInfo> list(Handle handle, String agentId) {
        return handle.createQuery(
                        "SELECT segment_id, written_at FROM " + tables.historySegments() + " WHERE agent_id = :agentId")
                .bind("agentId", agentId)
                .map((rs, ctx) ->
                        new SegmentInfo(rs.getString("segment_id"), Instant.ofEpochMilli(rs.getLong("written_at"))))
                .list();
    }

    /** Deletes the given segments written before {@code writtenBefore} (epoch milliseconds); returns how many. */
    public int delete(Handle handle, String agentId, Collection<String> segmentIds, long writtenBefore) {
        var ids = List.copyOf(segmentIds);
        int deleted = 0;
        for (int from = 0; from < ids.size(); from += BATCH) {
            deleted += handle.createUpdate("DELETE FROM " + tables.historySegments()
                            + " WHERE agent_id = :agentId AND segment_id IN (<ids>) AND written_at < :writtenBefore")
                    .bind("agentId", agentId)
                    .bindList("ids", ids.subList(from, Math.min(ids.size(), from + BATCH)))
                    .bind("writtenBefore", writtenBefore)
                    .execute();
        }
        return deleted;
    }

    /** Every agent with at least one segment, in no particular order. */
    public List<String> agentIds(Handle handle) {
        return new ArrayList<>(handle.createQuery("SELECT DISTINCT agent_id FROM " + tables.historySegments())
                .mapTo(String.class)
                .list());
    }
}
