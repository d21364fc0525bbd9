package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.backend.AgentSummaryScan;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records in a relational database: one row per checkpoint (the document plus the columns every filter field is
 * evaluated on), one row per metadata entry, an expiry row when the record expires, and the history segment table.
 * Filters, limits and "latest" run as indexed SQL. An insert is one transaction; a unique-key violation answers with
 * the rows holding the version or id.
 */
public final class JdbcStorageBackend implements StorageBackend {
    private static final int EXPIRY_BATCH = 500;
    /** Records written per transaction by {@link #insertAll}. */
    private static final int INSERT_BATCH = 200;
    /** Room left in a statement for its SQL text, ids and other columns besides the document. */
    private static final long STATEMENT_MARGIN = 64 * 1024;

    private final JdbcDatabase database;
    private final CheckpointStatements statements;
    private final CheckpointBatch batch;
    private final JdbcSegmentStore segments;
    private final JdbcQueues queues;
    private final Clock clock;
    /** The endpoint {@link #location} last described and its text; every decoded row asks for it. */
    private volatile Location location;

    public JdbcStorageBackend(JdbcDatabase database, Clock clock) {
        this.database = database;
        this.statements = new CheckpointStatements(database.tables(), database.preparedStatements());
        this.batch = new CheckpointBatch(database.tables());
        this.segments = new JdbcSegmentStore(database, clock);
        this.queues = new JdbcQueues(database);
        this.clock = clock;
    }

    /**
     * One transaction. On MariaDB/MySQL a record whose statement would exceed the server's {@code max_allowed_packet}
     * is refused before it is sent, and one the server refuses for its size likewise, with
     * {@link CheckpointTooLargeException}, never retried.
     */
    @Override
    public InsertResult insert(StoredCheckpoint record) {
        requireWithinStatementLimit(record);
        boolean inserted;
        try {
            SaveForm form = database.saveForm();
            try {
                inserted = insert(record, form);
            } catch (RuntimeException e) {
                if (!database.refusedSaveForm(form, e)) {
                    throw e;
                }
                inserted = insert(record, SaveForm.STATEMENTS);
            }
        } catch (StatementTooLargeException e) {
            throw tooLarge(record, e);
        }
        return inserted ? InsertResult.stored() : clashOf(record);
    }

    /** Refuses a record whose statement would exceed the server's {@code max_allowed_packet} (MariaDB/MySQL). */
    private void requireWithinStatementLimit(StoredCheckpoint record) {
        OptionalLong limit = database.statementLimit();
        if (limit.isPresent() && database.statementBytes(record.document()) + STATEMENT_MARGIN > limit.getAsLong()) {
            throw new CheckpointTooLargeException(
                    record.agentId(), record.checkpointId(), record.size(), limit.getAsLong());
        }
    }

    private CheckpointTooLargeException tooLarge(StoredCheckpoint record, StatementTooLargeException cause) {
        var tooLarge = new CheckpointTooLargeException(
                record.agentId(),
                record.checkpointId(),
                record.size(),
                database.statementLimit().orElse(-1));
        tooLarge.initCause(cause);
        return tooLarge;
    }

    /** The stored records holding the version or the id of {@code record}, which a save found taken. */
    private InsertResult clashOf(StoredCheckpoint record) {
        return InsertResult.clashedWith(database.read(
                "saveCheckpoint",
                connection ->
                        statements.colliding(connection, record.agentId(), record.version(), record.checkpointId())));
    }

    /**
     * One transaction: the segments (each stored unless present, its write time set), then the record's rows, so a save
     * of a history in the message log commits once; on MariaDB, and on PostgreSQL without an expiry row, one statement,
     * one round trip. When the transaction meets a duplicate key (the record clashes) or a statement would be too
     * large, it is rolled back and the segments and the record are written one after the other, which answers the clash
     * as {@link #insert(StoredCheckpoint)} does.
     */
    @Override
    public InsertResult insert(StoredCheckpoint record, Map<String, byte[]> contents) {
        StatementFit fit = contents.isEmpty() ? StatementFit.TOO_LARGE : fit(record, contents);
        if (fit == StatementFit.TOO_LARGE) {
            return StorageBackend.super.insert(record, contents); // no segments, or too large for a transaction
        }
        long now = clock.millis();
        boolean stored;
        try {
            SaveForm form = database.saveForm();
            if (fit == StatementFit.TOGETHER && statements.insertsWithSegmentsInOneStatement(record, form)) {
                stored = insertWithSegments(record, contents, now, form);
            } else {
                stored = database.insert("saveCheckpoint", false, connection -> {
                    segments.put(connection, record.agentId(), contents, now);
                    batch.insert(connection, List.of(record));
                });
            }
        } catch (StatementTooLargeException e) {
            stored = false;
        }
        return stored ? InsertResult.stored() : StorageBackend.super.insert(record, contents);
    }

    /**
     * One transaction: the agent's newest row read and held ({@link Dialect#lockingRead()}; on SQLite the write
     * transaction holds the database), compared with {@code expected}, then the segments and the record's rows. So no
     * save or deletion of the agent comes between the check and the insert. On PostgreSQL (without an expiry row) and
     * on MariaDB the transaction is one statement, one round trip. A clash is answered as
     * {@link #insert(StoredCheckpoint)} answers it; segments too large for one statement are stored first, on their
     * own.
     */
    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> contents) {
        Objects.requireNonNull(expected, "expected");
        requireWithinStatementLimit(record);
        Map<String, byte[]> together = contents;
        StatementFit fit = fit(record, contents);
        if (fit == StatementFit.TOO_LARGE) {
            contents.forEach((id, content) -> segments.putSegment(record.agentId(), id, content));
            together = Map.of();
        }
        boolean oneStatement = fit != StatementFit.APART;
        var headMoved = new AtomicBoolean();
        boolean inserted;
        try {
            SaveForm form = database.saveForm();
            try {
                inserted = insertAfter(expected, record, together, form, oneStatement, headMoved);
            } catch (RuntimeException e) {
                if (!database.refusedSaveForm(form, e)) {
                    throw e;
                }
                inserted = insertAfter(expected, record, together, SaveForm.STATEMENTS, false, headMoved);
            }
        } catch (StatementTooLargeException e) {
            throw tooLarge(record, e);
        }
        if (headMoved.get()) {
            return InsertResult.headMoved();
        }
        return inserted ? InsertResult.stored() : clashOf(record);
    }

    private boolean insertAfter(
            Optional<ExpectedHead> expected,
            StoredCheckpoint record,
            Map<String, byte[]> contents,
            SaveForm form,
            boolean oneStatement,
            AtomicBoolean headMoved) {
        long now = clock.millis();
        if (oneStatement && statements.insertsWithSegmentsInOneStatement(record, form)) {
            // PostgreSQL and MariaDB: the check and the rows in one statement, one round trip
            return database.insert("saveCheckpoint", true, connection -> {
                headMoved.set(!statements.insertAfter(connection, record, contents, now, expected, form));
            });
        }
        String lockingRead = database.lockingRead();
        return database.insert("saveCheckpoint", false, connection -> {
            Optional<ExpectedHead> head = statements.head(connection, record.agentId(), lockingRead);
            boolean holds = head.isEmpty()
                    ? expected.isEmpty()
                    : ExpectedHead.holds(
                            expected, head.get().checkpointId(), head.get().version());
            headMoved.set(!holds);
            if (holds) {
                if (!contents.isEmpty()) {
                    segments.put(connection, record.agentId(), contents, now);
                }
                statements.insert(connection, record, form);
            }
        });
    }

    /**
     * The segments and the record in one statement; {@code false} when it was refused for a duplicate key or the server
     * refused the statement's form (then nothing was written either way).
     */
    private boolean insertWithSegments(StoredCheckpoint record, Map<String, byte[]> contents, long now, SaveForm form) {
        try {
            return database.insert(
                    "saveCheckpoint",
                    true,
                    connection -> statements.insertWithSegments(connection, record, contents, now, form));
        } catch (RuntimeException e) {
            if (!database.refusedSaveForm(form, e)) {
                throw e;
            }
            return false;
        }
    }

    /** How a record and its segments fit under the server's statement limit. */
    private enum StatementFit {
        /** All in one statement. */
        TOGETHER,
        /** Each in a statement of its own. */
        APART,
        /** A segment or the record does not fit even on its own. */
        TOO_LARGE
    }

    /** How {@code record} and its segments {@code contents} fit, each value's size counted once. */
    private StatementFit fit(StoredCheckpoint record, Map<String, byte[]> contents) {
        OptionalLong limit = database.statementLimit();
        if (limit.isEmpty()) {
            return StatementFit.TOGETHER;
        }
        long largest = database.statementBytes(record.document());
        long total = largest;
        for (byte[] content : contents.values()) {
            long bytes = database.statementBytes(content);
            largest = Math.max(largest, bytes);
            total += bytes;
        }
        if (largest + STATEMENT_MARGIN > limit.getAsLong()) {
            return StatementFit.TOO_LARGE;
        }
        return total + STATEMENT_MARGIN <= limit.getAsLong() ? StatementFit.TOGETHER : StatementFit.APART;
    }

    /**
     * {@value #INSERT_BATCH} records per transaction, written with JDBC batches. A transaction that meets a duplicate
     * key (a clash with a stored record, or between two records of the list) is rolled back and its records inserted
     * one by one, so that each clash is answered on its own and the other records are stored; so are records too large
     * for the server's statement limit, which then fail as in {@link #insert}.
     */
    @Override
    public List<InsertResult> insertAll(List<StoredCheckpoint> records) {
        var results = new ArrayList<InsertResult>(records.size());
        for (int start = 0; start < records.size(); start += INSERT_BATCH) {
            List<StoredCheckpoint> chunk = records.subList(start, Math.min(records.size(), start + INSERT_BATCH));
            if (insertedTogether(chunk)) {
                chunk.forEach(record -> results.add(InsertResult.stored()));
            } else {
                chunk.forEach(record -> results.add(insert(record)));
            }
        }
        return results;
    }

    /** Whether every record of {@code chunk} is now stored by one transaction; {@code false}: none of them was. */
    private boolean insertedTogether(List<StoredCheckpoint> chunk) {
        OptionalLong limit = database.statementLimit();
        if (limit.isPresent()) {
            for (StoredCheckpoint record : chunk) {
                if (database.statementBytes(record.document()) + STATEMENT_MARGIN > limit.getAsLong()) {
                    return false;
                }
            }
        }
        try {
            return database.insert("saveCheckpoints", false, connection -> batch.insert(connection, chunk));
        } catch (StatementTooLargeException e) {
            return false;
        }
    }

    private boolean insert(StoredCheckpoint record, SaveForm form) {
        return database.insert(
                "saveCheckpoint",
                statements.insertsInOneStatement(record, form),
                connection -> statements.insert(connection, record, form));
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return database.read("getCheckpoint", c -> statements.byId(c, agentId, checkpointId));
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        return database.read("getLatestCheckpoint", c -> statements.latest(c, agentId, filter));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        return database.read("getCheckpoints", c -> statements.select(c, agentId, filter));
    }

    @Override
    public int deleteAll(String agentId) {
        return database.write(
                "deleteCheckpoints", false, c -> statements.deleteAll(c, agentId, database.deletesThroughCte()));
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return database.write(
                "deleteCheckpointsBefore",
                false,
                c -> statements.deleteBefore(c, agentId, version, database.deletesThroughCte()));
    }

    @Override
    public List<String> listAgents() {
        var agents = new ArrayList<>(database.read("listAgents", statements::agentIds));
        agents.sort(null);
        return List.copyOf(agents);
    }

    /** One grouped query over the checkpoint table ({@link CheckpointStatements#summaries}). */
    @Override
    public Optional<AgentSummaryScan> agentSummaries() {
        return Optional.of(() -> database.read("agentSummaries", statements::summaries));
    }

    /**
     * Expiry rows in {@code <prefix>checkpoint_expiry}, found through their {@code expires_at} index: 500 expired
     * records deleted per transaction until none is left.
     */
    @Override
    public Optional<Expiry> expiry() {
        return Optional.of(this::deleteExpired);
    }

    private int deleteExpired(Instant now) {
        long cutoff = now.toEpochMilli();
        int total = 0;
        while (true) {
            int deleted = database.write("deleteExpired", true, c -> statements.deleteExpired(c, cutoff, EXPIRY_BATCH));
            total += deleted;
            if (deleted < EXPIRY_BATCH) {
                return total;
            }
        }
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(segments);
    }

    @Override
    public Optional<QueueStore> queues() {
        return Optional.of(queues);
    }

    /** {@code SELECT 1} on a pooled connection. */
    @Override
    public void checkHealth() {
        database.read("checkHealth", connection -> Sql.number(connection, "SELECT 1"));
    }

    /** The same text for every row; built again only when the endpoint became known (an application's data source). */
    @Override
    public String describe() {
        return database.dialectName() + " (table " + database.tables().checkpoints() + ") at " + database.endpoint();
    }

    @Override
    public String location(String agentId, String checkpointId) {
        String endpoint = database.endpoint();
        Location known = location;
        if (known == null || known.endpoint() != endpoint) {
            known = new Location(
                    endpoint,
                    "row (agent_id, checkpoint_id) of table "
                            + database.tables().checkpoints() + " in " + endpoint);
            location = known;
        }
        return known.text();
    }

    private record Location(String endpoint, String text) {}

    /** Closes the connection pool when the backend created it. */
    @Override
    public void close() {
        database.close();
    }

    @Override
    public String toString() {
        return database.dialectName() + " " + database.endpoint() + ", tables "
                + database.tables().prefix() + "*";
    }
}
