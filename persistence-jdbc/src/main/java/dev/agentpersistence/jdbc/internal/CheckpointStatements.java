package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The SQL of every provider operation, run on a handle the caller owns. Every statement names one
 * agent in its {@code WHERE} clause, so each is served by the primary key or the
 * {@code (agent_id, version DESC)} index; ids and values are always bound, never spliced.
 */
public final class CheckpointStatements {

    private final Tables tables;
    private final String selectRows;
    private final String byIdSql;
    private final String collidingSql;

    public CheckpointStatements(Tables tables) {
        this.tables = Objects.requireNonNull(tables, "tables");
        this.selectRows = "SELECT c.agent_id, c.checkpoint_id, c.version, c.payload FROM " + tables.checkpoints() + " c WHERE ";
        this.byIdSql = selectRows + "c.agent_id = ? AND c.checkpoint_id = ?";
        this.collidingSql = selectRows + "c.agent_id = ? AND (c.version = ? OR c.checkpoint_id = ?) ORDER BY c.version ASC";
    }

    /** Inserts the checkpoint row, its expiry row and its metadata rows; the caller provides the transaction. */
    public void insert(Handle handle, StoredCheckpoint checkpoint) {
        handle.createUpdate("INSERT INTO " + tables.checkpoints()
                        + " (agent_id, checkpoint_id, version, created_at_seconds, created_at_nanos, node_id, tombstone, payload)"
                        + " VALUES (:agentId, :checkpointId, :version, :seconds, :nanos, :nodeId, :tombstone, :payload)")
                .bind("agentId", checkpoint.agentId())
                .bind("checkpointId", checkpoint.checkpointId())
                .bind("version", checkpoint.version())
                .bind("seconds", checkpoint.createdAt().getEpochSecond())
                .bind("nanos", checkpoint.createdAt().getNano())
                .bind("nodeId", FilterSql.utf8(checkpoint.nodeId()))
                .bind("tombstone", checkpoint.tombstone() ? 1 : 0)
                .bind("payload", checkpoint.document())
                .execute();
        if (checkpoint.expiresAt() != null) {
            deleteExpiry(handle, checkpoint.agentId(), checkpoint.checkpointId());
            handle.createUpdate("INSERT INTO " + tables.checkpointExpiry() + " (agent_id, checkpoint_id, expires_at)"
                            + " VALUES (:agentId, :checkpointId, :expiresAt)")
                    .bind("agentId", checkpoint.agentId())
                    .bind("checkpointId", checkpoint.checkpointId())
                    .bind("expiresAt", checkpoint.expiresAt().toEpochMilli())
                    .execute();
        }
        if (checkpoint.metadata().isEmpty()) {
            return;
        }
        var batch = handle.prepareBatch("INSERT INTO " + tables.metadata()
                + " (agent_id, checkpoint_id, meta_key, meta_value) VALUES (:agentId, :checkpointId, :key, :value)");
        for (var entry : checkpoint.metadata().entrySet()) {
            batch.bind("agentId", checkpoint.agentId())
                    .bind("checkpointId", checkpoint.checkpointId())
                    .bind("key", FilterSql.utf8(entry.getKey()))
                    .bind("value", FilterSql.utf8(entry.getValue()))
                    .add();
        }
        batch.execute();
    }

    /** The matching rows in ascending version order; with a limit, the newest {@code limit} of them. */
    public List<StoredDocument> select(Handle handle, String agentId, CheckpointFilter filter) {
        FilterSql where = FilterSql.of(agentId, filter, tables);
        if (filter.limit() == null) {
            return RowQuery.list(handle, selectRows + where.condition() + " ORDER BY c.version ASC", where.values());
        }
        var newestFirst = RowQuery.list(handle, selectRows + where.condition() + " ORDER BY c.version DESC LIMIT ?",
                where.valuesAnd(filter.limit().intValue()));
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** The matching row with the highest version. */
    public Optional<StoredDocument> latest(Handle handle, String agentId, CheckpointFilter filter) {
        FilterSql where = FilterSql.of(agentId, filter, tables);
        return RowQuery.first(handle, selectRows + where.condition() + " ORDER BY c.version DESC LIMIT 1", where.values());
    }

    /** The row with this primary key. */
    public Optional<StoredDocument> byId(Handle handle, String agentId, String checkpointId) {
        return RowQuery.first(handle, byIdSql, List.of(agentId, checkpointId));
    }

    /** The rows a new checkpoint collided with: same version or same id (at most two). */
    public List<StoredDocument> colliding(Handle handle, String agentId, long version, String checkpointId) {
        return RowQuery.list(handle, collidingSql, List.of(agentId, version, checkpointId));
    }

    /** Deletes every row of the agent; the caller provides the transaction. Returns the checkpoints deleted. */
    public int deleteAll(Handle handle, String agentId) {
        handle.createUpdate("DELETE FROM " + tables.checkpointExpiry() + " WHERE agent_id = :agentId")
                .bind("agentId", agentId)
                .execute();
        handle.createUpdate("DELETE FROM " + tables.metadata() + " WHERE agent_id = :agentId")
                .bind("agentId", agentId)
                .execute();
        return handle.createUpdate("DELETE FROM " + tables.checkpoints() + " WHERE agent_id = :agentId")
                .bind("agentId", agentId)
                .execute();
    }

    /** Deletes the agent's rows with a version below {@code version}; returns the checkpoints deleted. */
    public int deleteBefore(Handle handle, String agentId, long version) {
        for (String table : List.of(tables.checkpointExpiry(), tables.metadata())) {
            handle.createUpdate("DELETE FROM " + table + " WHERE agent_id = :agentId AND checkpoint_id IN"
                            + " (SELECT c.checkpoint_id FROM " + tables.checkpoints() + " c"
                            + " WHERE c.agent_id = :agentId AND c.version < :version)")
                    .bind("agentId", agentId)
                    .bind("version", version)
                    .execute();
        }
        return handle.createUpdate("DELETE FROM " + tables.checkpoints() + " WHERE agent_id = :agentId AND version < :version")
                .bind("agentId", agentId)
                .bind("version", version)
                .execute();
    }

    /**
     * Deletes up to {@code batch} checkpoints whose expiry time is at or before {@code now} (epoch
     * milliseconds), found through the {@code expires_at} index, with their metadata and expiry rows;
     * returns how many expired checkpoints it found (the caller repeats while that equals {@code batch}).
     */
    public int deleteExpired(Handle handle, long now, int batch) {
        List<Map.Entry<String, String>> expired = handle.createQuery("SELECT agent_id, checkpoint_id FROM "
                        + tables.checkpointExpiry() + " WHERE expires_at <= :now ORDER BY expires_at LIMIT :batch")
                .bind("now", now)
                .bind("batch", batch)
                .map((rs, ctx) -> Map.entry(rs.getString("agent_id"), rs.getString("checkpoint_id")))
                .list();
        for (String table : List.of(tables.metadata(), tables.checkpoints())) {
            var delete = handle.prepareBatch("DELETE FROM " + table + " WHERE agent_id = :agentId AND checkpoint_id = :checkpointId");
            expired.forEach(key -> delete.bind("agentId", key.getKey()).bind("checkpointId", key.getValue()).add());
            if (!expired.isEmpty()) {
                delete.execute();
            }
        }
        for (var key : expired) {
            deleteExpiry(handle, key.getKey(), key.getValue());
        }
        return expired.size();
    }

    private void deleteExpiry(Handle handle, String agentId, String checkpointId) {
        handle.createUpdate("DELETE FROM " + tables.checkpointExpiry()
                        + " WHERE agent_id = :agentId AND checkpoint_id = :checkpointId")
                .bind("agentId", agentId)
                .bind("checkpointId", checkpointId)
                .execute();
    }

    /** Every agent id with at least one row, in no particular order. */
    public List<String> agentIds(Handle handle) {
        return handle.createQuery("SELECT DISTINCT agent_id FROM " + tables.checkpoints())
                .mapTo(String.class)
                .list();
    }
}
