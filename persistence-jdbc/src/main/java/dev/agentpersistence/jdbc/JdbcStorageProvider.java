package dev.agentpersistence.jdbc;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.jdbc.internal.CheckpointStatements;
import dev.agentpersistence.jdbc.internal.JdbcDatabase;
import dev.agentpersistence.jdbc.internal.SegmentStatements;
import dev.agentpersistence.jdbc.internal.StatementTooLargeException;
import dev.agentpersistence.jdbc.internal.StoredRow;
import dev.agentpersistence.spi.ExpiringStorage;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.spi.StorageChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;

/**
 * Stores checkpoints in a relational database through JDBI: SQLite (the embedded default),
 * PostgreSQL, MariaDB/MySQL or H2, chosen from the JDBC URL.
 *
 * <p>Each checkpoint is one row holding the {@link CheckpointCodec} document plus the columns every
 * {@link CheckpointFilter} field is evaluated on, and one row per metadata entry in a child table.
 * Filters, limits and "latest" run as indexed SQL; no call reads all of an agent's rows. A save is
 * one transaction; a duplicate {@code (agent, version)} or {@code (agent, checkpoint id)} with
 * other content throws {@link dev.agentpersistence.CheckpointConflictException}, an identical
 * re-save does nothing. A database that is down or unreachable gives
 * {@link dev.agentpersistence.StorageUnavailableException}; the same instance works again once
 * the database is back. The schema is created and upgraded on first use (see {@link JdbcStorageConfig#migrate()}).
 * On MariaDB/MySQL a checkpoint whose statement would exceed the server's {@code max_allowed_packet}
 * (read once, on the first save) is refused before it is sent with
 * {@link CheckpointTooLargeException}, which is never retried; so is one the server refuses.
 *
 * <p>Also a {@link HistorySegmentStore} (table {@code <prefix>history_segments}) and an
 * {@link ExpiringStorage} ({@link JdbcStorageConfig#ttl()} fills the {@code expires_at} column of
 * {@code <prefix>checkpoint_expiry}):
 * {@link #withIncrementalHistory()} (and {@code PersistenceStorageProviders.load}) keep long message
 * histories once instead of in every checkpoint.
 *
 * <p>Thread-safe. Create with {@link #create(JdbcStorageConfig)} (the provider owns a HikariCP pool
 * and closes it) or {@link #builder()} over an existing {@link DataSource} or {@link Jdbi}
 * (the application keeps ownership of it).
 */
public final class JdbcStorageProvider
        implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore, ExpiringStorage {
    private static final int MAX_SAVE_ATTEMPTS = 3;
    private static final int EXPIRY_BATCH = 500;
    /** Room left in a statement for its SQL text, ids and other columns besides the document. */
    private static final long STATEMENT_MARGIN = 64 * 1024;

    private final JdbcDatabase database;
    private final CheckpointStatements statements;
    private final SegmentStatements segments;
    private final CheckpointCodec codec;
    private final Clock clock;
    private final Duration ttl;
    private final AtomicBoolean closed = new AtomicBoolean();

    private JdbcStorageProvider(JdbcDatabase database, CheckpointCodec codec, JdbcStorageConfig config) {
        this.database = database;
        this.statements = new CheckpointStatements(database.tables());
        this.segments = new SegmentStatements(database.tables());
        this.codec = codec;
        this.clock = config.clock();
        this.ttl = config.ttl().orElse(null);
    }

    /**
     * A provider with its own connection pool over {@code config.url()}.
     *
     * @throws PersistenceException when the URL names an unsupported database
     */
    public static JdbcStorageProvider create(JdbcStorageConfig config) {
        return builder().config(config).build();
    }

    /** A builder; without a data source or {@code Jdbi} the provider pools connections to the configured URL. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        CheckpointFilter effective = filter == null ? CheckpointFilter.ALL : filter;
        List<StoredRow> rows = database.read("getCheckpoints", h -> statements.select(h, agentId, effective));
        var result = new ArrayList<AgentCheckpoint>(rows.size());
        for (StoredRow row : rows) {
            result.add(decode(row));
        }
        return List.copyOf(result);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        CheckpointFilter effective = filter == null ? CheckpointFilter.ALL : filter;
        return database.read("getLatestCheckpoint", h -> statements.latest(h, agentId, effective)).map(this::decode);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return database.read("getCheckpoint", h -> statements.byId(h, agentId, checkpointId)).map(this::decode);
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        requireOpen();
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        byte[] document = codec.encode(checkpoint);
        requireWithinStatementLimit(agentId, checkpoint, document);
        Long expiresAt = ttl == null ? null : clock.instant().plus(ttl).toEpochMilli();
        for (int attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
            if (insert(agentId, checkpoint, document, expiresAt)) {
                return;
            }
            List<StoredRow> stored = database.read("saveCheckpoint",
                    h -> statements.colliding(h, agentId, checkpoint.version(), checkpoint.checkpointId()));
            for (StoredRow row : stored) {
                StorageChecks.requireIdentical(agentId, checkpoint, decode(row));
            }
            if (!stored.isEmpty()) {
                return;
            }
            // The colliding row was deleted in between: try the insert again.
        }
        throw new PersistenceException("Saving checkpoint '" + checkpoint.checkpointId() + "' of agent '" + agentId
                + "' kept colliding with rows that were deleted concurrently");
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return database.write("deleteCheckpoints", false, h -> statements.deleteAll(h, agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return database.write("deleteCheckpointsBefore", false, h -> statements.deleteBefore(h, agentId, version));
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        var agents = new ArrayList<>(database.read("listAgents", statements::agentIds));
        agents.sort(null);
        return List.copyOf(agents);
    }

    /**
     * Deletes every checkpoint whose time to live ({@link JdbcStorageConfig#ttl()}) has run out, found
     * through the {@code expires_at} index, 500 per transaction; returns how many. Expired checkpoints
     * stay readable until then. {@link dev.agentpersistence.history.RetentionSweeper} calls this on every sweep.
     */
    @Override
    public int deleteExpired() {
        requireOpen();
        long now = clock.millis();
        int total = 0;
        while (true) {
            int deleted = database.write("deleteExpired", true, h -> statements.deleteExpired(h, now, EXPIRY_BATCH));
            total += deleted;
            if (deleted < EXPIRY_BATCH) {
                return total;
            }
        }
    }

    /**
     * This provider with incremental message histories ({@link IncrementalHistoryStorageProvider}), as
     * {@code PersistenceStorageProviders.load} hands it out; segments are written with this provider's codec.
     */
    public IncrementalHistoryStorageProvider withIncrementalHistory() {
        return IncrementalHistoryStorageProvider.builder(this).segmentCodec(codec).clock(clock).build();
    }

    /** One {@code UPDATE} of the write time when the segment exists, else one {@code INSERT}. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        long now = clock.millis();
        for (int attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
            if (database.write("putSegment", true, h -> segments.touch(h, agentId, segmentId, now))) {
                return;
            }
            if (database.insert("putSegment", h -> segments.insert(h, agentId, segmentId, content, now))) {
                return;
            }
            // inserted concurrently by another writer: touch it
        }
        throw new PersistenceException("Writing history segment '" + segmentId + "' of agent '" + agentId
                + "' kept colliding with concurrent deletions");
    }

    /** One {@code SELECT … IN (…)} per 500 ids. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        if (segmentIds.isEmpty()) {
            return Map.of();
        }
        return database.read("getSegments", h -> segments.select(h, agentId, segmentIds));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var infos = new ArrayList<>(database.read("listSegments", h -> segments.list(h, agentId)));
        infos.sort(Comparator.comparing(SegmentInfo::segmentId));
        return List.copyOf(infos);
    }

    /** One {@code DELETE} whose condition includes the write time, so a segment written again meanwhile stays. */
    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        if (segmentIds.isEmpty()) {
            return 0;
        }
        // a write time in whole milliseconds is before the cutoff exactly when it is before the cutoff rounded up
        long cutoff = writtenBefore.toEpochMilli() + (writtenBefore.getNano() % 1_000_000 == 0 ? 0 : 1);
        return database.write("deleteSegments", true, h -> segments.delete(h, agentId, segmentIds, cutoff));
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen();
        var agents = new ArrayList<>(database.read("listSegmentAgents", segments::agentIds));
        agents.sort(null);
        return List.copyOf(agents);
    }

    /** Closes the connection pool when this provider created it. Later calls throw {@link IllegalStateException}. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            database.close();
        }
    }

    /** The database, its URL (password hidden) and the table prefix. */
    @Override
    public String toString() {
        return "JdbcStorageProvider[" + database.dialectName() + " " + database.endpoint()
                + ", tables " + database.tables().prefix() + "*]";
    }

    /** Refuses, before sending it, a checkpoint whose insert would exceed the server's statement size limit. */
    private void requireWithinStatementLimit(String agentId, AgentCheckpoint checkpoint, byte[] document) {
        OptionalLong limit = database.statementLimit();
        if (limit.isPresent() && database.statementBytes(document) + STATEMENT_MARGIN > limit.getAsLong()) {
            throw new CheckpointTooLargeException(agentId, checkpoint.checkpointId(), document.length, limit.getAsLong());
        }
    }

    /** The insert; a statement the server refused for its size becomes {@link CheckpointTooLargeException}. */
    private boolean insert(String agentId, AgentCheckpoint checkpoint, byte[] document, Long expiresAt) {
        try {
            return database.insert("saveCheckpoint", h -> statements.insert(h, checkpoint, document, expiresAt));
        } catch (StatementTooLargeException e) {
            var tooLarge = new CheckpointTooLargeException(agentId, checkpoint.checkpointId(), document.length,
                    database.statementLimit().orElse(-1));
            tooLarge.initCause(e);
            throw tooLarge;
        }
    }

    private AgentCheckpoint decode(StoredRow row) {
        String where = "row (agent_id, checkpoint_id) of table " + database.tables().checkpoints()
                + " in " + database.endpoint();
        return codec.decode(row.document(), new CheckpointLocation(row.agentId(), row.checkpointId(), where));
    }

    private void requireOpen() {
        StorageChecks.requireOpen(closed.get(), "JdbcStorageProvider over " + database.endpoint());
    }

    /** Builds {@link JdbcStorageProvider}s. */
    public static final class Builder {
        private JdbcStorageConfig config = JdbcStorageConfig.ofDefaults();
        private DataSource dataSource;
        private Jdbi jdbi;
        private CheckpointCodec codec = CheckpointCodec.json();

        private Builder() {
        }

        /** The settings; with a data source or {@code Jdbi}, only the table prefix, migration and busy timeout apply. */
        public Builder config(JdbcStorageConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Uses the application's data source; the application keeps owning (and closing) it. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /** Uses the application's {@code Jdbi}; the application keeps owning its data source. */
        public Builder jdbi(Jdbi jdbi) {
            this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
            return this;
        }

        /** The document format; default {@link CheckpointCodec#json()}. */
        public Builder codec(CheckpointCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /**
         * Creates the provider. Connects lazily: the first call migrates the schema.
         *
         * @throws IllegalStateException when both a data source and a {@code Jdbi} were given
         * @throws PersistenceException  when the URL names an unsupported database
         */
        public JdbcStorageProvider build() {
            if (dataSource != null && jdbi != null) {
                throw new IllegalStateException("Give either a DataSource or a Jdbi, not both");
            }
            JdbcDatabase database;
            if (jdbi != null) {
                database = JdbcDatabase.external(jdbi, config);
            } else if (dataSource != null) {
                database = JdbcDatabase.external(Jdbi.create(dataSource), config);
            } else {
                database = JdbcDatabase.pooled(config);
            }
            return new JdbcStorageProvider(database, codec, config);
        }
    }
}
