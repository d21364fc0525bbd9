package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The statements of a save, in plain JDBC: the checkpoint row, its expiry row and its metadata rows (one multi-row
 * {@code INSERT}), written in the database's {@link SaveForm}. A record is written in a single statement where the form
 * allows it (always in {@link SaveForm#BLOCK}; without an expiry time in {@link SaveForm#CTE}; without metadata and
 * expiry in {@link SaveForm#STATEMENTS}). Such a save needs no transaction from the caller and costs one round trip;
 * the rows written are the same either way.
 */
final class CheckpointInsert {
    private static final String CHECKPOINT_COLUMNS =
            " (agent_id, checkpoint_id, version, created_at_seconds, created_at_nanos, node_id, tombstone, payload)";
    private static final String METADATA_COLUMNS = " (agent_id, checkpoint_id, meta_key, meta_value)";
    /** A block's handler of any error: the transaction rolled back, the error signalled again as it was. */
    private static final String BLOCK_HANDLER = "DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END; ";
    /** Statement texts are kept for this many metadata entries; larger maps build theirs per save. */
    private static final int KEPT_TEXTS = 16;

    private final Tables tables;
    private final PreparedStatements prepared;
    private final String checkpointSql;
    private final String deleteExpirySql;
    private final String expirySql;
    private final String[] metadataSql = new String[KEPT_TEXTS + 1];
    private final String[] chainedSql = new String[KEPT_TEXTS + 1];
    /** Block texts by metadata entries, without and with an expiry row. */
    private final String[][] blockSql = new String[2][KEPT_TEXTS + 1];
    /** Conditional texts by metadata entries, for an agent without rows and for an expected head. */
    private final String[][] afterSql = new String[2][KEPT_TEXTS + 1];
    /** Conditional block texts without segments: by expiry row, by expected head, by metadata entries. */
    private final String[][][] afterBlockSql = new String[2][2][KEPT_TEXTS + 1];

    CheckpointInsert(Tables tables, PreparedStatements prepared) {
        this.tables = Objects.requireNonNull(tables, "tables");
        this.prepared = Objects.requireNonNull(prepared, "prepared");
        this.checkpointSql = checkpointText(tables);
        this.deleteExpirySql = deleteExpiryText(tables);
        this.expirySql = expiryText(tables);
        for (int n = 1; n <= KEPT_TEXTS; n++) {
            metadataSql[n] = metadataText(n);
            chainedSql[n] = chainedText(n);
        }
        for (int n = 0; n <= KEPT_TEXTS; n++) {
            blockSql[0][n] = blockText(0, n, false);
            blockSql[1][n] = blockText(0, n, true);
            afterSql[0][n] = afterText(0, n, false);
            afterSql[1][n] = afterText(0, n, true);
            for (int expires = 0; expires < 2; expires++) {
                afterBlockSql[expires][0][n] = afterBlockText(0, n, expires == 1, false);
                afterBlockSql[expires][1][n] = afterBlockText(0, n, expires == 1, true);
            }
        }
    }

    /** Whether {@code record} is written by one statement, without a transaction. */
    static boolean isOneStatement(StoredCheckpoint record, SaveForm form) {
        return form == SaveForm.BLOCK
                || record.expiresAt() == null && (record.metadata().isEmpty() || form == SaveForm.CTE);
    }

    /**
     * Writes {@code record}. When {@link #isOneStatement} holds this is one statement; otherwise the caller provides
     * the transaction.
     */
    void insert(Connection connection, StoredCheckpoint record, SaveForm form) throws SQLException {
        int entries = record.metadata().size();
        if (form == SaveForm.BLOCK) {
            insertWithSegments(connection, record, Map.of(), 0, form);
            return;
        }
        if (form == SaveForm.CTE && entries > 0 && record.expiresAt() == null) {
            execute(
                    connection,
                    entries <= KEPT_TEXTS ? chainedSql[entries] : chainedText(entries),
                    statement -> bindEntries(
                            statement, bindCheckpoint(statement, record), record.metadata(), false, record));
            return;
        }
        execute(connection, checkpointSql, statement -> bindCheckpoint(statement, record));
        if (record.expiresAt() != null) {
            execute(connection, deleteExpirySql, statement -> {
                statement.setString(1, record.agentId());
                statement.setString(2, record.checkpointId());
            });
            execute(connection, expirySql, statement -> bindExpiry(statement, 1, record, false));
        }
        if (entries > 0) {
            execute(
                    connection,
                    entries <= KEPT_TEXTS ? metadataSql[entries] : metadataText(entries),
                    statement -> bindEntries(statement, 1, record.metadata(), true, record));
        }
    }

    /**
     * Whether {@link #insertWithSegments} and {@link #insertAfter} write {@code record} and its segments in one
     * statement in {@code form}: always in {@link SaveForm#BLOCK}; in {@link SaveForm#CTE} without an expiry row.
     */
    static boolean insertsWithSegmentsInOneStatement(StoredCheckpoint record, SaveForm form) {
        return form == SaveForm.BLOCK || form == SaveForm.CTE && record.expiresAt() == null;
    }

    /**
     * Writes the segments {@code contents} (written at {@code writtenAt}) and {@code record}'s rows in one statement,
     * atomic in autocommit ({@link #insertsWithSegmentsInOneStatement}): a compound statement on MariaDB, a
     * {@code WITH} on PostgreSQL. A taken version or id fails as a duplicate key and writes nothing.
     */
    void insertWithSegments(
            Connection connection, StoredCheckpoint record, Map<String, byte[]> contents, long writtenAt, SaveForm form)
            throws SQLException {
        int entries = record.metadata().size();
        if (form == SaveForm.CTE) {
            execute(
                    connection,
                    chainedText(contents.size(), entries),
                    statement -> bindRows(statement, 1, record, contents, writtenAt, false));
            return;
        }
        boolean expires = record.expiresAt() != null;
        String sql = contents.isEmpty() && entries <= KEPT_TEXTS
                ? blockSql[expires ? 1 : 0][entries]
                : blockText(contents.size(), entries, expires);
        execute(connection, sql, statement -> bindRows(statement, 1, record, contents, writtenAt, true));
    }

    /**
     * Binds a one-statement save's rows from {@code first}: each segment's (agent, segment id, write time, content),
     * the checkpoint's, then in a {@code block} ({@link #rowsText}) the expiry row's and the metadata rows with their
     * ids, else the metadata keys and values alone; returns the next index.
     */
    private static int bindRows(
            PreparedStatement statement,
            int first,
            StoredCheckpoint record,
            Map<String, byte[]> contents,
            long writtenAt,
            boolean block)
            throws SQLException {
        int next = first;
        for (var segment : contents.entrySet()) {
            statement.setString(next++, record.agentId());
            statement.setString(next++, segment.getKey());
            statement.setLong(next++, writtenAt);
            statement.setBytes(next++, segment.getValue());
        }
        next = bindCheckpoint(statement, next, record);
        if (block && record.expiresAt() != null) {
            next = bindExpiry(statement, next, record, true);
        }
        return bindEntries(statement, next, record.metadata(), block, record);
    }

    private void execute(Connection connection, String sql, Binder binder) throws SQLException {
        PreparedStatement statement = prepared.prepare(connection, sql);
        boolean failed = true;
        try {
            binder.bind(statement);
            statement.executeUpdate();
            failed = false;
        } finally {
            prepared.release(connection, sql, statement, failed);
        }
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Binds the checkpoint row's columns; returns the next parameter index. */
    static int bindCheckpoint(PreparedStatement statement, StoredCheckpoint record) throws SQLException {
        return bindCheckpoint(statement, 1, record);
    }

    /** Binds the checkpoint row's columns from {@code first}; returns the next parameter index. */
    private static int bindCheckpoint(PreparedStatement statement, int first, StoredCheckpoint record)
            throws SQLException {
        statement.setString(first, record.agentId());
        statement.setString(first + 1, record.checkpointId());
        statement.setLong(first + 2, record.version());
        statement.setLong(first + 3, record.createdAt().getEpochSecond());
        statement.setInt(first + 4, record.createdAt().getNano());
        statement.setBytes(first + 5, FilterSql.utf8(record.nodeId()));
        statement.setInt(first + 6, record.tombstone() ? 1 : 0);
        statement.setBytes(first + 7, record.document());
        return first + 8;
    }

    /**
     * Writes {@code record} with its rows, and the segments {@code contents} (written at {@code writtenAt}), in one
     * statement ({@link #insertsWithSegmentsInOneStatement}), only while the agent's newest row is {@code expected}
     * (empty: while it has none): the statement reads the newest row {@code FOR UPDATE} and inserts only if it is the
     * expected one. Returns whether it inserted; a taken version or id fails as a duplicate key.
     */
    boolean insertAfter(
            Connection connection,
            StoredCheckpoint record,
            Map<String, byte[]> contents,
            long writtenAt,
            Optional<ExpectedHead> expected,
            SaveForm form)
            throws SQLException {
        int entries = record.metadata().size();
        boolean expectsHead = expected.isPresent();
        String sql;
        if (form == SaveForm.BLOCK) {
            boolean expires = record.expiresAt() != null;
            sql = contents.isEmpty() && entries <= KEPT_TEXTS
                    ? afterBlockSql[expires ? 1 : 0][expectsHead ? 1 : 0][entries]
                    : afterBlockText(contents.size(), entries, expires, expectsHead);
        } else {
            sql = contents.isEmpty() && entries <= KEPT_TEXTS
                    ? afterSql[expectsHead ? 1 : 0][entries]
                    : afterText(contents.size(), entries, expectsHead);
        }
        PreparedStatement statement = prepared.prepare(connection, sql);
        boolean failed = true;
        try {
            if (form == SaveForm.BLOCK) {
                int next = expectsHead ? bindHead(statement, 1, expected.get()) : 1;
                statement.setString(next++, record.agentId());
                bindRows(statement, next, record, contents, writtenAt, true);
            } else {
                statement.setString(1, record.agentId());
                int next = expectsHead ? bindHead(statement, 2, expected.get()) : 2;
                bindRows(statement, next, record, contents, writtenAt, false);
            }
            boolean inserted = insertedCount(statement) == 1;
            failed = false;
            return inserted;
        } finally {
            prepared.release(connection, sql, statement, failed);
        }
    }

    private static int bindHead(PreparedStatement statement, int first, ExpectedHead head) throws SQLException {
        statement.setString(first, head.checkpointId());
        statement.setLong(first + 1, head.version());
        return first + 2;
    }

    /** The one number a conditional statement answers with: the checkpoint rows it inserted. */
    private static long insertedCount(PreparedStatement statement) throws SQLException {
        boolean isRows = statement.execute();
        while (!isRows && statement.getUpdateCount() != -1) {
            isRows = statement.getMoreResults();
        }
        if (!isRows) {
            throw new SQLException("The conditional save answered with no row count");
        }
        try (ResultSet rows = statement.getResultSet()) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    /**
     * Binds the expiry statements from {@code first}: with {@code withDelete} the ids of the {@code DELETE} first, then
     * the {@code INSERT}'s ids and time; returns the next index.
     */
    private static int bindExpiry(PreparedStatement statement, int first, StoredCheckpoint record, boolean withDelete)
            throws SQLException {
        int i = first;
        if (withDelete) {
            statement.setString(i++, record.agentId());
            statement.setString(i++, record.checkpointId());
        }
        statement.setString(i++, record.agentId());
        statement.setString(i++, record.checkpointId());
        statement.setLong(i++, record.expiresAt().toEpochMilli());
        return i;
    }

    /** Binds each entry's key and value, preceded by the ids when {@code withIds}; returns the next index. */
    private static int bindEntries(
            PreparedStatement statement,
            int first,
            Map<String, String> entries,
            boolean withIds,
            StoredCheckpoint record)
            throws SQLException {
        int i = first;
        for (var entry : entries.entrySet()) {
            if (withIds) {
                statement.setString(i++, record.agentId());
                statement.setString(i++, record.checkpointId());
            }
            statement.setBytes(i++, FilterSql.utf8(entry.getKey()));
            statement.setBytes(i++, FilterSql.utf8(entry.getValue()));
        }
        return i;
    }

    /** The insert of one checkpoint row. */
    static String checkpointText(Tables tables) {
        return "INSERT INTO " + tables.checkpoints() + CHECKPOINT_COLUMNS + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    }

    /** The insert of one expiry row. */
    static String expiryText(Tables tables) {
        return "INSERT INTO " + tables.checkpointExpiry() + " (agent_id, checkpoint_id, expires_at) VALUES (?, ?, ?)";
    }

    /** The deletion of a checkpoint's expiry row. */
    static String deleteExpiryText(Tables tables) {
        return "DELETE FROM " + tables.checkpointExpiry() + " WHERE agent_id = ? AND checkpoint_id = ?";
    }

    private String metadataText(int entries) {
        return metadataText(tables, entries);
    }

    /** The insert of {@code entries} metadata rows. */
    static String metadataText(Tables tables, int entries) {
        var sql = new StringBuilder("INSERT INTO ")
                .append(tables.metadata())
                .append(METADATA_COLUMNS)
                .append(" VALUES ");
        for (int n = 0; n < entries; n++) {
            sql.append(n == 0 ? "" : ", ").append("(?, ?, ?, ?)");
        }
        return sql.toString();
    }

    /**
     * Every statement of a save ({@code segments} segment rows first) in one compound statement: its own transaction,
     * committed at the end, rolled back on any error, which is then signalled again as it was (a duplicate key stays
     * one).
     */
    private String blockText(int segments, int entries, boolean expires) {
        return "BEGIN NOT ATOMIC " + BLOCK_HANDLER + "START TRANSACTION; " + rowsText(segments, entries, expires)
                + "COMMIT; END";
    }

    /**
     * The conditional form of {@link #blockText}: the agent's newest row read {@code FOR UPDATE} first
     * ({@code expectsHead}: whether it is the row whose id and version are the first parameters; else whether there is
     * none), then, only if it holds, {@code segments} segment rows and the checkpoint's rows written and committed; the
     * number of checkpoint rows inserted is the statement's one result.
     */
    private String afterBlockText(int segments, int entries, boolean expires, boolean expectsHead) {
        return "BEGIN NOT ATOMIC DECLARE h INT DEFAULT NULL; " + BLOCK_HANDLER + "START TRANSACTION; SELECT "
                + (expectsHead ? "checkpoint_id = ? AND version = ?" : "1") + " INTO h FROM " + tables.checkpoints()
                + " WHERE agent_id = ? ORDER BY version DESC LIMIT 1 FOR UPDATE; IF "
                + (expectsHead ? "h = 1" : "h IS NULL") + " THEN " + rowsText(segments, entries, expires)
                + "COMMIT; SELECT 1; ELSE ROLLBACK; SELECT 0; END IF; END";
    }

    /** The statements of a save's rows inside a block, each ended by {@code "; "}. */
    private String rowsText(int segments, int entries, boolean expires) {
        var sql = new StringBuilder();
        if (segments > 0) {
            sql.append(MariaDbDialect.segmentUpsert(tables, segments)).append("; ");
        }
        sql.append(checkpointSql).append("; ");
        if (expires) {
            sql.append(deleteExpirySql).append("; ").append(expirySql).append("; ");
        }
        if (entries > 0) {
            sql.append(metadataText(entries)).append("; ");
        }
        return sql.toString();
    }

    /**
     * The conditional form of {@link #chainedText}: the agent's newest row read {@code FOR UPDATE}, then, only if it is
     * the expected head ({@code expectsHead}: its id and version are parameters; else only if there is none),
     * {@code segments} segment rows upserted and the checkpoint row inserted with its metadata rows chained to it; the
     * number of checkpoint rows inserted is the result.
     */
    private String afterText(int segments, int entries, boolean expectsHead) {
        var sql = new StringBuilder("WITH h AS (SELECT checkpoint_id, version FROM ")
                .append(tables.checkpoints())
                .append(" WHERE agent_id = ? ORDER BY version DESC LIMIT 1 FOR UPDATE), ok AS (SELECT 1 WHERE ")
                .append(
                        expectsHead
                                ? "EXISTS (SELECT 1 FROM h WHERE h.checkpoint_id = ? AND h.version = ?)"
                                : "NOT EXISTS (SELECT 1 FROM h)")
                .append("), ");
        if (segments > 0) {
            sql.append(segmentsCte(segments, " WHERE EXISTS (SELECT 1 FROM ok)"))
                    .append(", ");
        }
        sql.append("c AS (INSERT INTO ")
                .append(tables.checkpoints())
                .append(CHECKPOINT_COLUMNS)
                .append(" SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM ok)")
                .append(" RETURNING agent_id, checkpoint_id)");
        if (entries > 0) {
            sql.append(", m AS (INSERT INTO ")
                    .append(tables.metadata())
                    .append(METADATA_COLUMNS)
                    .append(" SELECT c.agent_id, c.checkpoint_id, m.meta_key, m.meta_value FROM c CROSS JOIN (")
                    .append(metadataValues(entries))
                    .append(") AS m (meta_key, meta_value) RETURNING 1)");
        }
        return sql.append(" SELECT count(*) FROM c").toString();
    }

    /**
     * A PostgreSQL {@code WITH} item that upserts {@code segments} segment rows (each stored unless its key exists, its
     * write time set either way) where {@code condition} holds.
     */
    private String segmentsCte(int segments, String condition) {
        var sql = new StringBuilder("s AS (INSERT INTO ")
                .append(tables.historySegments())
                .append(" (agent_id, segment_id, written_at, content) SELECT v.agent_id, v.segment_id, v.written_at,")
                .append(" v.content FROM (VALUES ");
        for (int n = 0; n < segments; n++) {
            sql.append(
                    n == 0
                            ? "(CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS BIGINT), CAST(? AS BYTEA))"
                            : ", (?, ?, ?, ?)");
        }
        return sql.append(") AS v (agent_id, segment_id, written_at, content)")
                .append(condition)
                .append(PostgresDialect.SEGMENT_CONFLICT)
                .append(" RETURNING 1)")
                .toString();
    }

    /** {@code VALUES} of {@code entries} metadata rows (key, value), typed by the first. */
    private static String metadataValues(int entries) {
        var sql = new StringBuilder("VALUES ");
        for (int n = 0; n < entries; n++) {
            sql.append(n == 0 ? "" : ", ").append(n == 0 ? "(CAST(? AS BYTEA), CAST(? AS BYTEA))" : "(?, ?)");
        }
        return sql.toString();
    }

    /**
     * The checkpoint row and {@code entries} metadata rows in one statement; the metadata rows take their ids from the
     * checkpoint row the statement inserted, so they exist only if it does.
     */
    private String chainedText(int entries) {
        return chainedText(0, entries);
    }

    /**
     * {@code segments} segment rows upserted, the checkpoint row inserted and {@code entries} metadata rows chained to
     * it, in one statement.
     */
    private String chainedText(int segments, int entries) {
        var sql = new StringBuilder("WITH ");
        if (segments > 0) {
            sql.append(segmentsCte(segments, "")).append(entries == 0 ? " " : ", ");
        }
        if (entries == 0) {
            return sql.append(checkpointSql).toString();
        }
        sql.append("c AS (INSERT INTO ")
                .append(tables.checkpoints())
                .append(CHECKPOINT_COLUMNS)
                .append(" VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING agent_id, checkpoint_id)");
        sql.append(" INSERT INTO ")
                .append(tables.metadata())
                .append(METADATA_COLUMNS)
                .append(" SELECT c.agent_id, c.checkpoint_id, m.meta_key, m.meta_value FROM c CROSS JOIN (")
                .append(metadataValues(entries));
        return sql.append(") AS m (meta_key, meta_value)").toString();
    }
}
