package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.h2.jdbcx.JdbcConnectionPool;

/**
 * A backend over an indexed store (MongoDB, DynamoDB, a SQL database), written against H2 through plain JDBC. A row per
 * checkpoint holds the filter attributes as columns, its metadata as an array of entries (what MongoDB indexes as a
 * multikey field), so every filter is one query; a row per history segment makes the backend its own segment area, the
 * one optional capability it keeps: without it incremental history and media parts by reference are off. The rest is
 * the shell's: no expiry (a time to live is refused), no candidate scan (the queries evaluate every filter field), and
 * the default {@code insertAfter} (read the head, then insert; a transaction holding the head row makes it one step).
 */
public final class IndexedStorageBackend implements StorageBackend, HistorySegmentStore {
    private static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS checkpoints (agent_id VARCHAR NOT NULL, checkpoint_id VARCHAR NOT NULL,
                version BIGINT NOT NULL, created_at TIMESTAMP(9) WITH TIME ZONE NOT NULL, node_id VARCHAR,
                tombstone BOOLEAN NOT NULL, metadata VARCHAR ARRAY NOT NULL, document VARBINARY NOT NULL,
                PRIMARY KEY (agent_id, version), UNIQUE (agent_id, checkpoint_id));
            CREATE TABLE IF NOT EXISTS segments (agent_id VARCHAR NOT NULL, segment_id VARCHAR NOT NULL,
                content VARBINARY NOT NULL, written_at TIMESTAMP(9) WITH TIME ZONE NOT NULL,
                PRIMARY KEY (agent_id, segment_id))""";
    /** A read leaves a document over the size limit unread (null). */
    private static final String SELECT = "SELECT checkpoint_id, version, CASE WHEN OCTET_LENGTH(document) <= ?"
            + " THEN document END FROM checkpoints WHERE agent_id = ?";

    private static final String TOUCH = "UPDATE segments SET written_at = ? WHERE agent_id = ? AND segment_id = ?";
    private static final String DUPLICATE_KEY = "23505";

    private final String url;
    private final JdbcConnectionPool pool;
    private final Clock clock;
    private final long maxDocumentSize;

    /** Opens (and creates) the H2 database at {@code url}, e.g. {@code jdbc:h2:file:/data/checkpoints}. */
    public IndexedStorageBackend(String url, Clock clock, long maxDocumentSize) {
        this.url = Objects.requireNonNull(url, "url");
        this.pool = JdbcConnectionPool.create(url, "", "");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxDocumentSize = maxDocumentSize;
        update(SCHEMA);
    }

    @Override
    public InsertResult insert(StoredCheckpoint r) {
        int inserted = update(
                "INSERT INTO checkpoints VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                r.agentId(),
                r.checkpointId(),
                r.version(),
                r.createdAt(),
                r.nodeId(),
                r.tombstone(),
                entries(r.metadata()),
                r.document());
        // else the rows holding its version or id; none when they were deleted meanwhile (the shell tries again)
        String clashing = " AND (version = ? OR checkpoint_id = ?) ORDER BY version";
        return inserted == 1
                ? InsertResult.stored()
                : InsertResult.clashedWith(read(r.agentId(), clashing, r.version(), r.checkpointId()));
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        List<StoredDocument> found = read(agentId, " AND checkpoint_id = ?", checkpointId);
        return found.stream().findFirst();
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        var where = new StringBuilder(filter.includeTombstones() ? "" : " AND NOT tombstone");
        var values = new ArrayList<Object>();
        when(filter.nodeId(), " AND node_id = ?", where, values);
        when(filter.createdAfter(), " AND created_at >= ?", where, values);
        when(filter.createdBefore(), " AND created_at < ?", where, values);
        when(filter.maxVersion(), " AND version <= ?", where, values);
        for (String entry : entries(filter.metadata())) {
            when(entry, " AND ARRAY_CONTAINS(metadata, ?)", where, values);
        }
        where.append(" ORDER BY version DESC");
        when(filter.limit(), " LIMIT ?", where, values);
        var newestFirst = read(agentId, where.toString(), values.toArray());
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    @Override
    public int deleteAll(String agentId) {
        return update("DELETE FROM checkpoints WHERE agent_id = ?", agentId);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return update("DELETE FROM checkpoints WHERE agent_id = ? AND version < ?", agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return query("SELECT DISTINCT agent_id FROM checkpoints ORDER BY agent_id", rows -> rows.getString(1));
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(this);
    }

    /** A second put of an id only records the new write time. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        Instant now = clock.instant();
        String insert = "INSERT INTO segments VALUES (?, ?, ?, ?)";
        if (update(TOUCH, now, agentId, segmentId) == 0 && update(insert, agentId, segmentId, content, now) == 0) {
            update(TOUCH, now, agentId, segmentId); // another writer inserted it meanwhile
        }
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        String select = "SELECT segment_id, content FROM segments WHERE agent_id = ? AND segment_id = ANY(?)";
        var found =
                query(select, rows -> Map.entry(rows.getString(1), rows.getBytes(2)), agentId, segmentIds.toArray());
        return found.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        String select = "SELECT segment_id, written_at FROM segments WHERE agent_id = ? ORDER BY segment_id";
        return query(select, rows -> new SegmentInfo(rows.getString(1), rows.getObject(2, Instant.class)), agentId);
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        String delete = "DELETE FROM segments WHERE agent_id = ? AND segment_id = ANY(?) AND written_at < ?";
        return update(delete, agentId, segmentIds.toArray(), writtenBefore);
    }

    @Override
    public List<String> listSegmentAgents() {
        return query("SELECT DISTINCT agent_id FROM segments ORDER BY agent_id", rows -> rows.getString(1));
    }

    @Override
    public void checkHealth() {
        query("SELECT 1", rows -> rows.getInt(1));
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return url + " checkpoints(" + agentId + ", " + checkpointId + ")";
    }

    @Override
    public void close() {
        pool.dispose();
    }

    /** The agent's rows matching {@code where}; a document over the size limit is refused before it is read. */
    private List<StoredDocument> read(String agentId, String where, Object... values) {
        var parameters = new ArrayList<Object>(List.of(maxDocumentSize, agentId));
        parameters.addAll(List.of(values));
        return query(SELECT + where, rows -> document(agentId, rows), parameters.toArray());
    }

    private StoredDocument document(String agentId, ResultSet rows) throws SQLException {
        String id = rows.getString(1);
        byte[] document = rows.getBytes(3);
        if (document == null) {
            String reason = "the stored document is over the size limit of " + maxDocumentSize + " bytes";
            throw new CorruptCheckpointException(agentId, id, location(agentId, id), reason, null);
        }
        return new StoredDocument(agentId, id, rows.getLong(2), document, null);
    }

    private <T> List<T> query(String sql, Row<T> row, Object... values) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = bind(connection.prepareStatement(sql), values);
                ResultSet rows = statement.executeQuery()) {
            var found = new ArrayList<T>();
            while (rows.next()) {
                found.add(row.read(rows));
            }
            return found;
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** Runs a statement that changes rows; returns the row count, 0 for an insert of a key that is taken. */
    private int update(String sql, Object... values) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = bind(connection.prepareStatement(sql), values)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            if (DUPLICATE_KEY.equals(e.getSQLState())) {
                return 0;
            }
            throw unavailable(e);
        }
    }

    private static PreparedStatement bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
        return statement;
    }

    private StorageUnavailableException unavailable(SQLException e) {
        return new StorageUnavailableException("H2 at " + url + " failed: " + e.getMessage(), e);
    }

    /** Appends {@code clause} and binds {@code value} unless it is {@code null}. */
    private static void when(Object value, String clause, StringBuilder where, List<Object> values) {
        if (value != null) {
            where.append(clause);
            values.add(value);
        }
    }

    /** The metadata as array elements; the length prefix keeps every name and value apart. */
    private static String[] entries(Map<String, String> metadata) {
        return metadata.entrySet().stream()
                .map(e -> e.getKey().length() + ":" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
    }

    /** Reads one row of a result. */
    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet rows) throws SQLException;
    }
}
