package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The history segment table ({@code <prefix>history_segments}) as the backend's segment area. */
public final class JdbcSegmentStore implements HistorySegmentStore {
    private static final int MAX_PUT_ATTEMPTS = 3;

    private final JdbcDatabase database;
    private final SegmentStatements statements;
    private final SegmentRows rows;
    private final Clock clock;

    public JdbcSegmentStore(JdbcDatabase database, Clock clock) {
        this.database = database;
        this.statements = new SegmentStatements(database.tables());
        this.rows = new SegmentRows(database.tables(), database::segmentUpsert);
        this.clock = clock;
    }

    /**
     * One statement with the dialect's upsert; without one, a touch and, when it changed no row, an insert, in one
     * transaction, tried again when another writer inserted the segment in between.
     */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        long now = clock.millis();
        Map<String, byte[]> segment = Map.of(segmentId, content);
        for (int attempt = 1; attempt <= MAX_PUT_ATTEMPTS; attempt++) {
            if (database.insert(
                    "putSegment", rows.oneStatement(), connection -> rows.put(connection, agentId, segment, now))) {
                return;
            }
            // inserted concurrently by another writer: touch it
        }
        throw new PersistenceException("Writing history segment '" + segmentId + "' of agent '" + agentId
                + "' kept colliding with concurrent deletions");
    }

    /**
     * Writes {@code contents} (segment id to bytes) with write time {@code writtenAt} on a connection in the caller's
     * transaction, as {@link #putSegment} writes one.
     */
    void put(Connection connection, String agentId, Map<String, byte[]> contents, long writtenAt) throws SQLException {
        rows.put(connection, agentId, contents, writtenAt);
    }

    /** One {@code SELECT … IN (…)} per 500 ids. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        return database.read("getSegments", c -> statements.select(c, agentId, segmentIds));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        var infos = new ArrayList<>(database.read("listSegments", c -> statements.list(c, agentId)));
        infos.sort(Comparator.comparing(SegmentInfo::segmentId));
        return List.copyOf(infos);
    }

    /** One {@code DELETE} whose condition includes the write time, so a segment written again meanwhile stays. */
    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        // a write time in whole milliseconds is before the cutoff exactly when it is before the cutoff rounded up
        long cutoff = writtenBefore.toEpochMilli() + (writtenBefore.getNano() % 1_000_000 == 0 ? 0 : 1);
        return database.write("deleteSegments", true, c -> statements.delete(c, agentId, segmentIds, cutoff));
    }

    @Override
    public List<String> listSegmentAgents() {
        var agents = new ArrayList<>(database.read("listSegmentAgents", statements::agentIds));
        agents.sort(null);
        return List.copyOf(agents);
    }
}
