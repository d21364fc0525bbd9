package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.CheckpointFilter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CheckpointFilter} as an SQL condition on the checkpoint table aliased {@code c}: every field becomes a
 * predicate with positional parameters (never spliced values). {@code limit} is applied by the caller as {@code ORDER
 * BY version DESC LIMIT ?}.
 *
 * @param condition the text after {@code WHERE}
 * @param values the values of its parameters, in order
 */
record FilterSql(String condition, List<Object> values) {

    /** The condition selecting {@code agentId}'s checkpoints that match {@code filter}. */
    static FilterSql of(String agentId, CheckpointFilter filter, Tables tables) {
        var sql = new StringBuilder("c.agent_id = ?");
        var values = new ArrayList<Object>();
        values.add(agentId);
        if (filter.nodeId() != null) {
            sql.append(" AND c.node_id = ?");
            values.add(utf8(filter.nodeId()));
        }
        if (filter.createdAfter() != null) {
            Instant after = filter.createdAfter();
            sql.append(" AND (c.created_at_seconds > ? OR (c.created_at_seconds = ? AND c.created_at_nanos >= ?))");
            values.addAll(List.of(after.getEpochSecond(), after.getEpochSecond(), after.getNano()));
        }
        if (filter.createdBefore() != null) {
            Instant before = filter.createdBefore();
            sql.append(" AND (c.created_at_seconds < ? OR (c.created_at_seconds = ? AND c.created_at_nanos < ?))");
            values.addAll(List.of(before.getEpochSecond(), before.getEpochSecond(), before.getNano()));
        }
        if (filter.maxVersion() != null) {
            sql.append(" AND c.version <= ?");
            values.add(filter.maxVersion());
        }
        if (!filter.includeTombstones()) {
            sql.append(" AND c.tombstone = 0");
        }
        for (var entry : filter.metadata().entrySet()) {
            sql.append(" AND EXISTS (SELECT 1 FROM ")
                    .append(tables.metadata())
                    .append(" m")
                    .append(" WHERE m.agent_id = c.agent_id AND m.checkpoint_id = c.checkpoint_id")
                    .append(" AND m.meta_key = ? AND m.meta_value = ?)");
            values.add(utf8(entry.getKey()));
            values.add(utf8(entry.getValue()));
        }
        return new FilterSql(sql.toString(), List.copyOf(values));
    }

    /** This condition's values followed by {@code more}. */
    List<Object> valuesAnd(Object... more) {
        var all = new ArrayList<Object>(values);
        all.addAll(List.of(more));
        return all;
    }

    /** The stored form of a node id, metadata key or metadata value; {@code null} stays {@code null}. */
    static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
