package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * PostgreSQL: transactional DDL guarded by a transaction-scoped advisory lock; the document is stored as {@code bytea}
 * (the codec's exact bytes, and faster than {@code jsonb}: see the module README).
 */
final class PostgresDialect implements Dialect {
    /** What a segment upsert does with a segment already stored: only its write time is set. */
    static final String SEGMENT_CONFLICT =
            " ON CONFLICT (agent_id, segment_id) DO UPDATE SET written_at = excluded.written_at";

    @Override
    public java.util.Optional<String> segmentUpsert(Tables tables) {
        return java.util.Optional.of("INSERT INTO " + tables.historySegments()
                + " (agent_id, segment_id, written_at, content) VALUES (?, ?, ?, ?)" + SEGMENT_CONFLICT);
    }

    private static final SchemaDdl DDL = new SchemaDdl("VARCHAR(256)", "BYTEA", "BYTEA", "", false, true);

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public SchemaDdl ddl() {
        return DDL;
    }

    @Override
    public boolean transactionalDdl() {
        return true;
    }

    @Override
    public void lockSchema(Connection connection, Tables tables, JdbcStorageConfig config) throws SQLException {
        Sql.first(
                connection,
                "SELECT pg_advisory_xact_lock(?)",
                rows -> rows.getString(1),
                advisoryKey(tables.lockName()));
    }

    /** Data-modifying {@code WITH} queries: a checkpoint and its metadata rows in one statement. */
    @Override
    public SaveForm saveForm() {
        return SaveForm.CTE;
    }

    @Override
    public void configurePool(HikariConfig pool, JdbcStorageConfig config) {
        long seconds = Math.max(1, (config.connectionTimeout().toMillis() + 999) / 1000);
        pool.addDataSourceProperty("connectTimeout", Long.toString(seconds));
        pool.addDataSourceProperty("tcpKeepAlive", "true");
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** A stable 64-bit key for {@code name}: the first 8 bytes of its SHA-256. */
    static long advisoryKey(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    @Override
    public String skippingLockedRead() {
        return " FOR UPDATE SKIP LOCKED";
    }
}
