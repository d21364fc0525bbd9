package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.CheckpointFilter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link CheckpointFilter} as an SQL condition on the checkpoint table aliased {@code c}: every
 * field becomes a predicate with bound parameters (never spliced values). {@code limit} is applied
 * by the caller as {@code ORDER BY version DESC LIMIT n}.
 *
 * @param condition  the text after {@code WHERE}
 * @param parameters the named parameters it uses
 */
record FilterSql(String condition, Map<String, Object> parameters) {

    /** The condition selecting {@code agentId}'s checkpoints that match {@code filter}. */
    static FilterSql of(String agentId, CheckpointFilter filter, Tables tables) {
        var sql = new StringBuilder("c.agent_id = :agentId");
        var parameters = new LinkedHashMap<String, Object>();
        parameters.put("agentId", agentId);
        if (filter.nodeId() != null) {
            sql.append(" AND c.node_id = :nodeId");
            parameters.put("nodeId", utf8(filter.nodeId()));
        }
        if (filter.createdAfter() != null) {
            Instant after = filter.createdAfter();
            sql.append(" AND (c.created_at_seconds > :afterSeconds"
                    + " OR (c.created_at_seconds = :afterSeconds AND c.created_at_nanos >= :afterNanos))");
            parameters.put("afterSeconds", after.getEpochSecond());
            parameters.put("afterNanos", after.getNano());
        }
        if (filter.createdBefore() != null) {
            Instant before = filter.createdBefore();
            sql.append(" AND (c.created_at_seconds < :beforeSeconds"
                    + " OR (c.created_at_seconds = :beforeSeconds AND c.created_at_nanos < :beforeNanos))");
            parameters.put("beforeSeconds", before.getEpochSecond());
            parameters.put("beforeNanos", before.getNano());
        }
        if (filter.maxVersion() != null) {
            sql.append(" AND c.version <= :maxVersion");
            parameters.put("maxVersion", filter.maxVersion());
        }
        if (!filter.includeTombstones()) {
            sql.append(" AND c.tombstone = 0");
        }
        int i = 0;
        for (var entry : filter.metadata().entrySet()) {
            sql.append(" AND EXISTS (SELECT 1 FROM ").append(tables.metadata()).append(" m")
                    .append(" WHERE m.agent_id = c.agent_id AND m.checkpoint_id = c.checkpoint_id")
                    .append(" AND m.meta_key = :metaKey").append(i)
                    .append(" AND m.meta_value = :metaValue").append(i).append(')');
            parameters.put("metaKey" + i, utf8(entry.getKey()));
            parameters.put("metaValue" + i, utf8(entry.getValue()));
            i++;
        }
        return new FilterSql(sql.toString(), Map.copyOf(parameters));
    }

    /** The stored form of a node id, metadata key or metadata value; {@code null} stays {@code null}. */
    static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
