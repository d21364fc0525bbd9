package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.StoredAgentSummary;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The SQL of every provider operation, run on a connection the caller owns. Every statement names one agent in its
 * {@code WHERE} clause, so each is served by the primary key or the {@code (agent_id, version DESC)} index; ids and
 * values are always bound, never spliced.
 */
public final class CheckpointStatements {

    private final Tables tables;
    private final String selectRows;
    private final String byIdSql;
    private final String collidingSql;
    /** The latest of an agent's checkpoints, unfiltered: the common read, its text built once. */
    private final String latestSql;

    /** The id and version of an agent's newest row, for a conditional insert. */
    private final String headSql;

    private final CheckpointInsert insert;
    private final PreparedStatements prepared;

    public CheckpointStatements(Tables tables, PreparedStatements prepared) {
        this.tables = Objects.requireNonNull(tables, "tables");
        this.prepared = Objects.requireNonNull(prepared, "prepared");
        this.selectRows = "SELECT c.checkpoint_id, c.version, c.payload FROM " + tables.checkpoints() + " c WHERE ";
        this.byIdSql = selectRows + "c.agent_id = ? AND c.checkpoint_id = ?";
        this.insert = new CheckpointInsert(tables, prepared);
        this.collidingSql =
                selectRows + "c.agent_id = ? AND (c.version = ? OR c.checkpoint_id = ?) ORDER BY c.version ASC";
        this.latestSql =
                latestSql(FilterSql.of("", CheckpointFilter.ALL, tables)); // its condition only names the agent
        this.headSql = "SELECT c.checkpoint_id, c.version FROM " + tables.checkpoints()
                + " c WHERE c.agent_id = ? ORDER BY c.version DESC LIMIT 1";
    }

    /**
     * Inserts the checkpoint row, its expiry row and its metadata rows; when {@link #insertsInOneStatement} is false
     * the caller provides the transaction.
     */
    public void insert(Connection connection, StoredCheckpoint checkpoint, SaveForm form) throws SQLException {
        insert.insert(connection, checkpoint, form);
    }

    /**
     * Inserts the segments {@code contents} (written at {@code writtenAt}), the checkpoint and its rows in one
     * statement, only while the agent's newest row is {@code expected}; only where
     * {@link #insertsWithSegmentsInOneStatement} holds. Returns whether it inserted.
     */
    public boolean insertAfter(
            Connection connection,
            StoredCheckpoint checkpoint,
            Map<String, byte[]> contents,
            long writtenAt,
            Optional<ExpectedHead> expected,
            SaveForm form)
            throws SQLException {
        return insert.insertAfter(connection, checkpoint, contents, writtenAt, expected, form);
    }

    /**
     * Inserts the segments {@code contents} (written at {@code writtenAt}) and the checkpoint's rows in one statement;
     * only where {@link #insertsWithSegmentsInOneStatement} holds.
     */
    public void insertWithSegments(
            Connection connection,
            StoredCheckpoint checkpoint,
            Map<String, byte[]> contents,
            long writtenAt,
            SaveForm form)
            throws SQLException {
        insert.insertWithSegments(connection, checkpoint, contents, writtenAt, form);
    }

    /**
     * Whether {@link #insertWithSegments} and {@link #insertAfter} write {@code checkpoint} and its segments in one
     * statement in {@code form}.
     */
    public boolean insertsWithSegmentsInOneStatement(StoredCheckpoint checkpoint, SaveForm form) {
        return CheckpointInsert.insertsWithSegmentsInOneStatement(checkpoint, form);
    }

    /** Whether {@link #insert} writes {@code checkpoint} with one statement, atomic in autocommit. */
    public boolean insertsInOneStatement(StoredCheckpoint checkpoint, SaveForm form) {
        return CheckpointInsert.isOneStatement(checkpoint, form);
    }

    /** The matching rows in ascending version order; with a limit, the newest {@code limit} of them. */
    public List<StoredDocument> select(Connection connection, String agentId, CheckpointFilter filter)
            throws SQLException {
        FilterSql where = FilterSql.of(agentId, filter, tables);
        if (filter.limit() == null) {
            return RowQuery.list(
                    prepared,
                    connection,
                    agentId,
                    selectRows + where.condition() + " ORDER BY c.version ASC",
                    where.values());
        }
        var newestFirst = RowQuery.list(
                prepared,
                connection,
                agentId,
                selectRows + where.condition() + " ORDER BY c.version DESC LIMIT ?",
                where.valuesAnd(filter.limit().intValue()));
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** The matching row with the highest version. */
    public Optional<StoredDocument> latest(Connection connection, String agentId, CheckpointFilter filter)
            throws SQLException {
        if (filter.equals(CheckpointFilter.ALL)) {
            return RowQuery.first(prepared, connection, agentId, latestSql, List.of(agentId));
        }
        FilterSql where = FilterSql.of(agentId, filter, tables);
        return RowQuery.first(prepared, connection, agentId, latestSql(where), where.values());
    }

    /**
     * The id and version of the agent's newest row, in the transaction of {@code connection}; with {@code lockingRead}
     * (the dialect's) the row stays locked until it ends.
     */
    public Optional<ExpectedHead> head(Connection connection, String agentId, String lockingRead) throws SQLException {
        String sql = headSql + lockingRead;
        PreparedStatement statement = prepared.prepare(connection, sql);
        boolean failed = true;
        try {
            statement.setString(1, agentId);
            Optional<ExpectedHead> head;
            try (ResultSet rows = statement.executeQuery()) {
                head = rows.next()
                        ? Optional.of(new ExpectedHead(rows.getString(1), rows.getLong(2)))
                        : Optional.empty();
            }
            failed = false;
            return head;
        } finally {
            prepared.release(connection, sql, statement, failed);
        }
    }

    private String latestSql(FilterSql where) {
        return selectRows + where.condition() + " ORDER BY c.version DESC LIMIT 1";
    }

    /** The row with this primary key. */
    public Optional<StoredDocument> byId(Connection connection, String agentId, String checkpointId)
            throws SQLException {
        return RowQuery.first(prepared, connection, agentId, byIdSql, List.of(agentId, checkpointId));
    }

    /** The rows a new checkpoint collided with: same version or same id (at most two). */
    public List<StoredDocument> colliding(Connection connection, String agentId, long version, String checkpointId)
            throws SQLException {
        return RowQuery.list(prepared, connection, agentId, collidingSql, List.of(agentId, version, checkpointId));
    }

    /**
     * Deletes every row of the agent; the caller provides the transaction. Returns the checkpoints deleted.
     * {@code inOneStatement}: see {@link #deleteBefore}.
     */
    public int deleteAll(Connection connection, String agentId, boolean inOneStatement) throws SQLException {
        return delete(connection, agentId, null, inOneStatement);
    }

    /**
     * Deletes the agent's rows with a version below {@code version}; the caller provides the transaction. Returns the
     * checkpoints deleted.
     *
     * <p>Where the metadata table has a foreign key, the expiry and metadata rows go first, then the checkpoints: a
     * save committed in between makes the last statement fail on the key instead of leaving metadata rows behind.
     * Without the key ({@code inOneStatement}), one {@code WITH} statement deletes the checkpoints and the rows of
     * exactly those checkpoints, all seen in one snapshot, where the metadata of a checkpoint is always committed with
     * it.
     */
    public int deleteBefore(Connection connection, String agentId, long version, boolean inOneStatement)
            throws SQLException {
        return delete(connection, agentId, version, inOneStatement);
    }

    /** Deletes the agent's checkpoints below {@code version} (all when null) with their other rows. */
    private int delete(Connection connection, String agentId, Long version, boolean inOneStatement)
            throws SQLException {
        String below = version == null ? "" : " AND version < ?";
        if (inOneStatement) {
            String sql = "WITH d AS (DELETE FROM " + tables.checkpoints() + " WHERE agent_id = ?" + below
                    + " RETURNING checkpoint_id), "
                    + "m AS (DELETE FROM " + tables.metadata() + " x USING d WHERE x.agent_id = ?"
                    + " AND x.checkpoint_id = d.checkpoint_id), "
                    + "e AS (DELETE FROM " + tables.checkpointExpiry() + " x USING d WHERE x.agent_id = ?"
                    + " AND x.checkpoint_id = d.checkpoint_id) "
                    + "SELECT COUNT(*) FROM d";
            Object[] values = version == null
                    ? new Object[] {agentId, agentId, agentId}
                    : new Object[] {agentId, version, agentId, agentId};
            return Sql.number(connection, sql, values).orElseThrow().intValue();
        }
        String ofDeleted = version == null
                ? ""
                : " AND checkpoint_id IN (SELECT c.checkpoint_id FROM " + tables.checkpoints()
                        + " c WHERE c.agent_id = ? AND c.version < ?)";
        Object[] ofAgent = version == null ? new Object[] {agentId} : new Object[] {agentId, version};
        Object[] ofAgentAndDeleted =
                version == null ? new Object[] {agentId} : new Object[] {agentId, agentId, version};
        Sql.update(
                connection,
                "DELETE FROM " + tables.checkpointExpiry() + " WHERE agent_id = ?" + ofDeleted,
                ofAgentAndDeleted);
        Sql.update(
                connection, "DELETE FROM " + tables.metadata() + " WHERE agent_id = ?" + ofDeleted, ofAgentAndDeleted);
        return Sql.update(connection, "DELETE FROM " + tables.checkpoints() + " WHERE agent_id = ?" + below, ofAgent);
    }

    /**
     * Deletes up to {@code batch} checkpoints whose expiry time is at or before {@code now} (epoch milliseconds), found
     * through the {@code expires_at} index, with their metadata and expiry rows; returns how many expired checkpoints
     * it found (the caller repeats while that equals {@code batch}).
     */
    public int deleteExpired(Connection connection, long now, int batch) throws SQLException {
        List<Map.Entry<String, String>> expired = Sql.list(
                connection,
                "SELECT agent_id, checkpoint_id FROM " + tables.checkpointExpiry()
                        + " WHERE expires_at <= ? ORDER BY expires_at LIMIT ?",
                rows -> Map.entry(rows.getString(1), rows.getString(2)),
                now,
                batch);
        if (expired.isEmpty()) {
            return 0;
        }
        for (String table : List.of(tables.metadata(), tables.checkpoints(), tables.checkpointExpiry())) {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM " + table + " WHERE agent_id = ? AND checkpoint_id = ?")) {
                for (var key : expired) {
                    delete.setString(1, key.getKey());
                    delete.setString(2, key.getValue());
                    delete.addBatch();
                }
                delete.executeBatch();
            }
        }
        return expired.size();
    }

    /**
     * Every agent with its row count, the sum of its payload sizes and its row with the highest version, in no
     * particular order: one grouped pass over the table joined back to each agent's newest row through the unique
     * {@code (agent_id, version)} index.
     */
    public List<StoredAgentSummary> summaries(Connection connection) throws SQLException {
        String table = tables.checkpoints();
        String sql = "SELECT c.agent_id, c.checkpoint_id, c.version, c.payload, s.records, s.bytes FROM " + table
                + " c JOIN (SELECT agent_id, COUNT(*) AS records, SUM(OCTET_LENGTH(payload)) AS bytes,"
                + " MAX(version) AS newest FROM " + table + " GROUP BY agent_id) s"
                + " ON c.agent_id = s.agent_id AND c.version = s.newest";
        return Sql.list(connection, sql, rows -> {
            String agentId = rows.getString(1);
            var newest = new StoredDocument(agentId, rows.getString(2), rows.getLong(3), rows.getBytes(4));
            return new StoredAgentSummary(agentId, rows.getLong(5), rows.getLong(6), newest);
        });
    }

    /** Every agent id with at least one row, in no particular order. */
    public List<String> agentIds(Connection connection) throws SQLException {
        return Sql.list(connection, "SELECT DISTINCT agent_id FROM " + tables.checkpoints(), rows -> rows.getString(1));
    }
}
