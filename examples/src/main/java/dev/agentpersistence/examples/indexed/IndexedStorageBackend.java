package dev.agentpersistence.examples.indexed;

import static dev.agentpersistence.examples.indexed.Sql.query;
import static dev.agentpersistence.examples.indexed.Sql.update;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A backend over an indexed store, the model to copy for a database with secondary indexes (MongoDB, DynamoDB, a SQL
 * database): one row per checkpoint with the filter attributes as indexed columns, one row per metadata entry and one
 * per history segment ({@link IndexedSegmentStore}); every filter is one indexed query. Written against H2 through
 * plain JDBC ({@link Sql}); the storage shell does everything else (ids, the stored form, conflicts, incremental
 * history, observation).
 */
public final class IndexedStorageBackend implements StorageBackend {
    private static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS checkpoints (agent_id VARCHAR NOT NULL, checkpoint_id VARCHAR NOT NULL,"
                + " version BIGINT NOT NULL, created_at NUMERIC(30) NOT NULL, node_id VARCHAR,"
                + " tombstone BOOLEAN NOT NULL, size BIGINT NOT NULL, document VARBINARY NOT NULL,"
                + " PRIMARY KEY (agent_id, version),"
                + " UNIQUE (agent_id, checkpoint_id))",
        "CREATE TABLE IF NOT EXISTS checkpoint_metadata (agent_id VARCHAR NOT NULL, checkpoint_id VARCHAR NOT NULL,"
                + " name VARCHAR NOT NULL, val VARCHAR NOT NULL, PRIMARY KEY (agent_id, checkpoint_id, name),"
                + " FOREIGN KEY (agent_id, checkpoint_id) REFERENCES checkpoints (agent_id, checkpoint_id)"
                + " ON DELETE CASCADE)",
        "CREATE INDEX IF NOT EXISTS metadata_by_value ON checkpoint_metadata (agent_id, name, val)",
        IndexedSegmentStore.SCHEMA
    };
    /** The columns a read selects: a document over the size limit is left unread (null). */
    private static final String SELECT = "SELECT checkpoint_id, version, CASE WHEN size <= ? THEN document END, size"
            + " FROM checkpoints c WHERE agent_id = ?";

    private final Sql sql;
    private final long maxDocumentSize;
    private final IndexedSegmentStore segments;

    /** Opens (and creates) the H2 database at {@code url}, e.g. {@code jdbc:h2:file:/data/checkpoints}. */
    public IndexedStorageBackend(String url, Clock clock, long maxDocumentSize) {
        this.sql = new Sql(url);
        this.maxDocumentSize = maxDocumentSize;
        this.segments = new IndexedSegmentStore(sql, clock);
        sql.run("creating the schema", connection -> {
            for (String ddl : SCHEMA) {
                update(connection, ddl);
            }
            return null;
        });
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        return insert(null, r);
    }

    /** The newest row read {@code FOR UPDATE} in the insert's transaction: no save or deletion comes in between. */
    @Override
    public InsertResult insertAfter(Optional<ExpectedHead> expected, StoredCheckpoint r, Map<String, byte[]> segments) {
        segments.forEach((id, content) -> this.segments.putSegment(r.agentId(), id, content));
        return insert(expected, r);
    }

    /** {@code expected}: {@code null} for a plain insert. */
    private InsertResult insert(Optional<ExpectedHead> expected, StoredCheckpoint r) {
        return sql.run("saving " + r.checkpointId(), connection -> {
            connection.setAutoCommit(false);
            try {
                if (expected != null && !headIs(connection, r.agentId(), expected)) {
                    connection.rollback();
                    return InsertResult.headMoved();
                }
                Object[] row = {
                    r.agentId(),
                    r.checkpointId(),
                    r.version(),
                    nanos(r.createdAt()),
                    r.nodeId(),
                    r.tombstone(),
                    r.document().length,
                    r.document()
                };
                update(connection, "INSERT INTO checkpoints VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row);
                for (var entry : r.metadata().entrySet()) {
                    Object[] metadata = {r.agentId(), r.checkpointId(), entry.getKey(), entry.getValue()};
                    update(connection, "INSERT INTO checkpoint_metadata VALUES (?, ?, ?, ?)", metadata);
                }
                connection.commit();
                return InsertResult.stored();
            } catch (SQLException e) {
                connection.rollback();
                if (!Sql.DUPLICATE_KEY.equals(e.getSQLState())) {
                    throw e;
                }
            } finally {
                connection.setAutoCommit(true);
            }
            // the records holding its version or id; none when they were deleted meanwhile (the shell tries again)
            String clashing = " AND (version = ? OR checkpoint_id = ?) ORDER BY version";
            return InsertResult.clashedWith(read(connection, r.agentId(), clashing, r.version(), r.checkpointId()));
        });
    }

    private static boolean headIs(Connection connection, String agentId, Optional<ExpectedHead> expected)
            throws SQLException {
        String newest = "SELECT checkpoint_id, version FROM checkpoints WHERE agent_id = ? ORDER BY version DESC"
                + " LIMIT 1 FOR UPDATE";
        try (PreparedStatement statement = connection.prepareStatement(newest)) {
            statement.setString(1, agentId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next()
                        ? ExpectedHead.holds(expected, rows.getString(1), rows.getLong(2))
                        : expected.isEmpty();
            }
        }
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return sql
                .run("reading " + checkpointId, c -> read(c, agentId, " AND checkpoint_id = ?", checkpointId))
                .stream()
                .findFirst();
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        var where = new StringBuilder();
        var values = new ArrayList<Object>();
        when(filter.nodeId() != null, " AND node_id = ?", filter.nodeId(), where, values);
        when(filter.createdAfter() != null, " AND created_at >= ?", nanos(filter.createdAfter()), where, values);
        when(filter.createdBefore() != null, " AND created_at < ?", nanos(filter.createdBefore()), where, values);
        when(filter.maxVersion() != null, " AND version <= ?", filter.maxVersion(), where, values);
        where.append(filter.includeTombstones() ? "" : " AND NOT tombstone");
        filter.metadata().forEach((name, value) -> {
            where.append(" AND EXISTS (SELECT 1 FROM checkpoint_metadata m WHERE m.agent_id = c.agent_id"
                    + " AND m.checkpoint_id = c.checkpoint_id AND m.name = ? AND m.val = ?)");
            values.addAll(List.of(name, value));
        });
        where.append(" ORDER BY version DESC");
        when(filter.limit() != null, " LIMIT ?", filter.limit(), where, values);
        var newestFirst = sql.run("listing " + agentId, c -> read(c, agentId, where.toString(), values.toArray()));
        var ascending = new ArrayList<>(newestFirst);
        Collections.reverse(ascending);
        return ascending;
    }

    @Override
    public int deleteAll(String agentId) {
        return sql.run("deleting " + agentId, c -> update(c, "DELETE FROM checkpoints WHERE agent_id = ?", agentId));
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        String before = "DELETE FROM checkpoints WHERE agent_id = ? AND version < ?";
        return sql.run("deleting " + agentId, c -> update(c, before, agentId, version));
    }

    @Override
    public List<String> listAgents() {
        return sql.strings("listing agents", "SELECT DISTINCT agent_id FROM checkpoints");
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    @Override
    public void checkHealth() {
        sql.run("checking health", c -> update(c, "SELECT 1"));
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return sql + " checkpoints(" + agentId + ", " + checkpointId + ")";
    }

    @Override
    public void close() {
        sql.close();
    }

    @Override
    public String toString() {
        return "IndexedStorageBackend[" + sql + "]";
    }

    /** The agent's rows matching {@code where}; a document over the size limit is refused before it is read. */
    private List<StoredDocument> read(Connection connection, String agentId, String where, Object... values)
            throws SQLException {
        var parameters = new ArrayList<Object>(List.of(maxDocumentSize, agentId));
        parameters.addAll(List.of(values));
        var found = new ArrayList<StoredDocument>();
        try (ResultSet rows = query(connection, SELECT + where, parameters.toArray())) {
            while (rows.next()) {
                String id = rows.getString(1);
                byte[] document = rows.getBytes(3);
                if (document == null) {
                    String reason = "the stored document (" + rows.getLong(4) + " bytes) is over the size limit";
                    throw new CorruptCheckpointException(agentId, id, location(agentId, id), reason, null);
                }
                found.add(new StoredDocument(agentId, id, rows.getLong(2), document, location(agentId, id)));
            }
        }
        return found;
    }

    /** Appends {@code clause} and its {@code value} when {@code applies}. */
    private static void when(boolean applies, String clause, Object value, StringBuilder where, List<Object> values) {
        if (applies) {
            where.append(clause);
            values.add(value);
        }
    }

    /** Nanoseconds since the epoch, exact for every {@link Instant}. */
    private static BigDecimal nanos(Instant time) {
        return time == null
                ? null
                : BigDecimal.valueOf(time.getEpochSecond(), -9).add(BigDecimal.valueOf(time.getNano()));
    }
}
