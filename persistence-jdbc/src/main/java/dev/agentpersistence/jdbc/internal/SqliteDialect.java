package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * SQLite: WAL journal (readers never block the writer), a busy timeout, write transactions that take the write lock
 * when they begin, and one writer at a time inside the provider, so {@code SQLITE_BUSY} is absorbed instead of reaching
 * callers.
 */
final class SqliteDialect implements Dialect {
    @Override
    public java.util.Optional<String> segmentUpsert(Tables tables) {
        return java.util.Optional.of("INSERT INTO " + tables.historySegments()
                + " (agent_id, segment_id, written_at, content) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (agent_id, segment_id) DO UPDATE SET written_at = excluded.written_at");
    }

    private static final SchemaDdl DDL = new SchemaDdl("TEXT", "BLOB", "BLOB", "", false, false);
    private static final int BUSY = 5;
    private static final int LOCKED = 6;
    private static final int CANTOPEN = 14;
    /** SQLITE_OPEN_READONLY: the file must exist and is never written. */
    private static final int READ_ONLY_OPEN_MODE = 1;

    @Override
    public String name() {
        return "SQLite";
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
    public void lockSchema(Connection connection, Tables tables, JdbcStorageConfig config) {
        // The migration transaction holds SQLite's database-wide write lock from its first write on;
        // a deadlock between two processes surfaces as SQLITE_BUSY and the migrator retries.
    }

    /** None: a write transaction holds the database's write lock from its start ({@code BEGIN IMMEDIATE}). */
    @Override
    public String lockingRead() {
        return "";
    }

    @Override
    public boolean serializesWrites() {
        return true;
    }

    /** Compiling the latest query took as long as running it (a profile of latest: 16 samples each). */
    @Override
    public boolean keepsPreparedStatements() {
        return true;
    }

    @Override
    public void configurePool(HikariConfig pool, JdbcStorageConfig config) {
        String url = config.url();
        if (url.contains(":memory:") || url.contains("mode=memory")) {
            throw new PersistenceException("An in-memory SQLite database lives in one connection and cannot back a "
                    + "connection pool; use a file URL such as "
                    + JdbcStorageConfig.URL.defaultText().orElseThrow());
        }
        createParentDirectory(url);
        pool.addDataSourceProperty("journal_mode", "WAL");
        pool.addDataSourceProperty(
                "busy_timeout", Long.toString(config.busyTimeout().toMillis()));
        pool.addDataSourceProperty("transaction_mode", "IMMEDIATE");
        pool.addDataSourceProperty("foreign_keys", "true");
    }

    /**
     * Opens the database file read-only (SQLITE_OPEN_READONLY), so a missing file is not created; the journal mode is
     * left as the writers set it.
     */
    @Override
    public void configureReadOnlyPool(HikariConfig pool, JdbcStorageConfig config) {
        String path = filePath(config.url());
        if (path.isEmpty() || !path.startsWith("file:") && !Files.exists(Path.of(path))) {
            throw new StorageNotFoundException("SQLite database " + (path.isEmpty() ? "(no file named)" : path)
                    + " does not exist; a read-only provider creates none (check agent.persistence.jdbc.url)");
        }
        pool.addDataSourceProperty("open_mode", Integer.toString(READ_ONLY_OPEN_MODE));
        pool.setReadOnly(true);
        pool.addDataSourceProperty(
                "busy_timeout", Long.toString(config.busyTimeout().toMillis()));
    }

    @Override
    public List<String> sessionSetup(JdbcStorageConfig config) {
        return List.of("PRAGMA busy_timeout = " + config.busyTimeout().toMillis());
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        if (e instanceof SQLiteException sqlite) {
            SQLiteErrorCode code = sqlite.getResultCode();
            return code == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                    || code == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE;
        }
        return false;
    }

    @Override
    public boolean isTransient(SQLException e) {
        int base = e.getErrorCode() & 0xFF;
        return base == BUSY || base == LOCKED;
    }

    @Override
    public boolean isConnectionFailure(SQLException e) {
        return (e.getErrorCode() & 0xFF) == CANTOPEN || Dialect.super.isConnectionFailure(e);
    }

    /** The path of {@code jdbc:sqlite:path?options}. */
    private static String filePath(String url) {
        String path = url.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        return query >= 0 ? path.substring(0, query) : path;
    }

    /** For {@code jdbc:sqlite:dir/file.db}, creates {@code dir} so the first start does not fail. */
    private static void createParentDirectory(String url) {
        String path = filePath(url);
        if (path.isEmpty() || path.startsWith("file:")) {
            return;
        }
        try {
            Path parent = Path.of(path).toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException | InvalidPathException e) {
            throw new PersistenceException("Cannot create the directory of SQLite database '" + path + "': " + e, e);
        }
    }
}
