package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.redaction.Redactor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs provider operations against one database: prepares the schema on first use, serializes writes where the dialect
 * needs it, retries deadlocks and broken connections a bounded number of times, and turns driver errors into the
 * library's exceptions (a statement over the server's size limit into a {@link StatementTooLargeException}, never
 * retried).
 */
public final class JdbcDatabase implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcDatabase.class);
    private static final int MAX_TRANSIENT_ATTEMPTS = 8;
    private static final int MAX_RECONNECT_ATTEMPTS = 3;

    private final Jdbi jdbi;
    private final HikariDataSource ownedPool;
    private final JdbcStorageConfig config;
    private final Tables tables;
    private final ReentrantLock initLock = new ReentrantLock();
    private final ReentrantLock writeLock = new ReentrantLock(true);
    private volatile Dialect dialect;
    /** Set when the server refused the dialect's {@link SaveForm}. */
    private volatile boolean saveFormRefused;

    private volatile String endpoint;
    /** Hides the URL's and the password setting's credentials in messages and causes. */
    private final Redactor redactor;

    private volatile List<String> sessionSetup = List.of();
    /** The physical connections {@link #sessionSetup} already ran on; weak, so closed ones go. */
    private final Map<Connection, Boolean> preparedSessions = Collections.synchronizedMap(new WeakHashMap<>());

    private volatile boolean ready;
    /** The server's statement size limit once read; empty when it has none. */
    private volatile OptionalLong statementLimit;
    /** Kept per connection only in the pool this object owns: an application's connections are its own. */
    private final PreparedStatements preparedStatements;

    private JdbcDatabase(
            Jdbi jdbi, HikariDataSource ownedPool, JdbcStorageConfig config, Dialect dialect, String endpoint) {
        this.jdbi = jdbi;
        this.ownedPool = ownedPool;
        this.preparedStatements = new PreparedStatements(
                () -> ownedPool != null && this.dialect != null && this.dialect.keepsPreparedStatements());
        this.config = config;
        this.tables = new Tables(config.tablePrefix());
        this.dialect = dialect;
        this.redactor = Redactor.forCredentialsIn(config.url())
                .andSecret(config.password().orElse(null));
        this.endpoint = redactor.redact(endpoint);
    }

    /**
     * A database reached through a pool this object creates and closes; the dialect comes from the URL.
     *
     * @throws dev.agentpersistence.StorageConfigurationException when the URL is not a supported database or no driver
     *     on the class path accepts it (naming the Maven artifact to add)
     */
    public static JdbcDatabase pooled(JdbcStorageConfig config) {
        Objects.requireNonNull(config, "config");
        Dialect dialect = Dialects.forUrl(config.url());
        Dialects.requireDriver(config.url());
        HikariDataSource pool = PoolFactory.create(config, dialect);
        return new JdbcDatabase(Jdbi.create(pool), pool, config, dialect, config.url());
    }

    /** A database reached through the application's {@code Jdbi}; the dialect is detected on first use. */
    public static JdbcDatabase external(Jdbi jdbi, JdbcStorageConfig config) {
        return new JdbcDatabase(
                Objects.requireNonNull(jdbi, "jdbi"),
                null,
                Objects.requireNonNull(config, "config"),
                null,
                "the application's data source");
    }

    /** The prepared statements of saves and checkpoint reads, kept per connection where the dialect asks for it. */
    PreparedStatements preparedStatements() {
        return preparedStatements;
    }

    /** The table names. */
    public Tables tables() {
        return tables;
    }

    /** The database's URL (password hidden), or a description until it is known. */
    public String endpoint() {
        return endpoint;
    }

    /** The dialect's name, or {@code "unknown"} before the first connection to an external data source. */
    public String dialectName() {
        Dialect d = dialect;
        return d == null ? "unknown" : d.name();
    }

    /**
     * The largest statement the server accepts, in bytes, read from the server on the first call and kept for this
     * object's lifetime; empty when the database has no such limit.
     */
    public OptionalLong statementLimit() {
        OptionalLong known = statementLimit;
        if (known == null) {
            known = read("reading the statement size limit", handle -> dialect.maxStatementBytes(handle));
            statementLimit = known;
        }
        return known;
    }

    /** How many bytes {@code value} takes in a statement sent to this database. */
    public long statementBytes(byte[] value) {
        ensureReady();
        return dialect.statementBytes(value);
    }

    /** Runs a read. Broken connections are retried, as reads are idempotent. */
    public <T> T read(String operation, HandleCallback<T, RuntimeException> work) {
        return run(operation, false, true, work);
    }

    /**
     * Runs a write in one transaction.
     *
     * @param idempotent whether repeating it after a connection broke mid-way gives the same result
     */
    public <T> T write(String operation, boolean idempotent, HandleCallback<T, RuntimeException> work) {
        return run(operation, true, idempotent, handle -> handle.inTransaction(work::withHandle));
    }

    /**
     * Runs an insert in one transaction; returns {@code false} instead of failing when it hit a duplicate key. Safe to
     * repeat after a broken connection: the repeat finds its own row.
     */
    public boolean insert(String operation, Consumer<Handle> work) {
        return run(operation, true, true, handle -> {
            try {
                handle.useTransaction(work::accept);
                return true;
            } catch (RuntimeException e) {
                if (FailureKind.of(e, dialect) == FailureKind.UNIQUE_VIOLATION) {
                    return false;
                }
                throw e;
            }
        });
    }

    /**
     * Runs an insert on a plain connection; returns {@code false} instead of failing when it hit a duplicate key. With
     * {@code oneStatement} the work is a single statement run in autocommit (the database makes it atomic); otherwise
     * it runs in one transaction. Safe to repeat after a broken connection: the repeat finds its own row.
     */
    public boolean insert(String operation, boolean oneStatement, ConnectionWork work) {
        return runOnConnection(operation, true, true, connection -> {
            try {
                if (oneStatement) {
                    work.run(connection);
                } else {
                    Transactions.run(connection, work);
                }
                return true;
            } catch (SQLException e) {
                if (FailureKind.of(new UnableToExecuteStatementException(e, null), dialect)
                        == FailureKind.UNIQUE_VIOLATION) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** Runs a read on a plain connection in autocommit. Broken connections are retried, as reads are idempotent. */
    public <T> T readOnConnection(String operation, ConnectionCall<T> work) {
        return runOnConnection(operation, false, true, work);
    }

    /** How saves write their rows: the dialect's form, or {@link SaveForm#STATEMENTS} once the server refused it. */
    public SaveForm saveForm() {
        ensureReady();
        return saveFormRefused ? SaveForm.STATEMENTS : dialect.saveForm();
    }

    /**
     * Whether {@code failure} of a save in {@code form} says the server refuses that form; if so, later saves use
     * {@link SaveForm#STATEMENTS} (logged once).
     */
    public boolean refusedSaveForm(SaveForm form, RuntimeException failure) {
        if (form == SaveForm.STATEMENTS) {
            return false;
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException sql && dialect.refusesSaveForm(sql)) {
                if (!saveFormRefused) {
                    saveFormRefused = true;
                    LOG.info(
                            "{} refused saves as one {} statement ({}); saving with a transaction of several "
                                    + "statements",
                            endpoint,
                            form,
                            redactor.redact(sql.getMessage()));
                }
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the metadata table has no foreign key (migration 4 dropped it), so that a deletion must remove
     * checkpoints and their metadata rows in one statement ({@code WITH ... DELETE}).
     */
    public boolean deletesThroughCte() {
        ensureReady();
        return dialect.ddl().plannedForeignKeys();
    }

    /** Closes the pool when this object created it. */
    @Override
    public void close() {
        preparedStatements.clear();
        if (ownedPool != null) {
            try {
                ownedPool.close();
            } catch (Exception e) {
                LOG.warn("Closing the connection pool of {} failed", endpoint, redactor.redact(e));
            }
        }
    }

    private <T> T run(String operation, boolean write, boolean idempotent, HandleCallback<T, RuntimeException> work) {
        ensureReady();
        return retrying(operation, idempotent, () -> serialized(write, () -> withHandle(work)));
    }

    private <T> T runOnConnection(String operation, boolean write, boolean idempotent, ConnectionCall<T> work) {
        ensureReady();
        return retrying(operation, idempotent, () -> serialized(write, () -> withConnection(work)));
    }

    /** Runs {@code attempt} holding the write lock when it writes to a database that takes one writer at a time. */
    private <T> T serialized(boolean write, Supplier<T> attempt) {
        if (write && dialect.serializesWrites()) {
            writeLock.lock();
            try {
                return attempt.get();
            } finally {
                writeLock.unlock();
            }
        }
        return attempt.get();
    }

    /**
     * Runs {@code work} on a connection of the pool this object owns (no JDBI handle around it), or on the connection
     * of a handle of the application's {@code Jdbi}. A connection that cannot be obtained fails as JDBI's
     * {@link ConnectionException} and a failed statement as its {@link UnableToExecuteStatementException}, so both are
     * classified like every other failure.
     */
    private <T> T withConnection(ConnectionCall<T> work) {
        if (ownedPool == null) {
            return withHandle(handle -> {
                try {
                    return work.call(handle.getConnection());
                } catch (SQLException e) {
                    throw new UnableToExecuteStatementException(e, null);
                }
            });
        }
        Connection connection;
        try {
            connection = ownedPool.getConnection();
        } catch (SQLException e) {
            throw new ConnectionException(e);
        }
        try (connection) {
            return work.call(connection);
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException(e, null);
        }
    }

    /**
     * Runs {@code attempt}, repeating it after deadlocks and busy errors and, when {@code idempotent}, after a broken
     * connection; translates the final failure.
     */
    private <T> T retrying(String operation, boolean idempotent, Supplier<T> attempt) {
        for (int n = 1; ; n++) {
            try {
                return attempt.get();
            } catch (PersistenceException e) {
                throw e;
            } catch (RuntimeException e) {
                FailureKind kind = FailureKind.of(e, dialect);
                boolean retry = (kind == FailureKind.TRANSIENT && n < MAX_TRANSIENT_ATTEMPTS)
                        || (kind == FailureKind.CONNECTION_LOST && idempotent && n < MAX_RECONNECT_ATTEMPTS);
                if (!retry) {
                    throw translate(operation, e, kind);
                }
                LOG.debug(
                        "{} on {} failed ({}), attempt {}: {}",
                        operation,
                        endpoint,
                        kind,
                        n,
                        redactor.redact(e.toString()));
                if (kind == FailureKind.TRANSIENT) {
                    RetryPause.pause(n);
                }
            }
        }
    }

    private <T> T withHandle(HandleCallback<T, RuntimeException> work) {
        List<String> setup = sessionSetup;
        return jdbi.withHandle(handle -> {
            if (!setup.isEmpty()) {
                setUpSession(handle, setup);
            }
            return work.withHandle(handle);
        });
    }

    /**
     * Runs the dialect's session statements once per physical connection (a pool hands the same one out again and
     * again; the settings they make last as long as it does).
     */
    private void setUpSession(Handle handle, List<String> setup) {
        Connection physical = Connections.physical(handle.getConnection());
        if (preparedSessions.containsKey(physical)) {
            return;
        }
        for (String statement : setup) {
            handle.execute(statement);
        }
        preparedSessions.put(physical, Boolean.TRUE);
    }

    /** Detects the dialect of an external data source and migrates the schema, once. */
    private void ensureReady() {
        if (ready) {
            return;
        }
        initLock.lock();
        try {
            if (ready) {
                return;
            }
            if (dialect == null) {
                detectDialect();
            }
            if (config.migrate()) {
                var migrator = new SchemaMigrator(
                        dialect, tables, config, dialect.ddl().migrations(tables));
                runPreparation("schema migration", () -> {
                    if (dialect.serializesWrites()) {
                        writeLock.lock();
                        try {
                            migrator.migrate(jdbi);
                        } finally {
                            writeLock.unlock();
                        }
                    } else {
                        migrator.migrate(jdbi);
                    }
                });
            }
            ready = true;
        } finally {
            initLock.unlock();
        }
    }

    private void detectDialect() {
        runPreparation(
                "database detection",
                () -> jdbi.useHandle(handle -> {
                    String url;
                    String product;
                    try {
                        var meta = handle.getConnection().getMetaData();
                        url = meta.getURL();
                        product = meta.getDatabaseProductName();
                    } catch (SQLException e) {
                        throw new ConnectionException(e);
                    }
                    Dialect detected = Dialects.forConnection(url, product);
                    if (url != null) {
                        endpoint = redactor.redact(url);
                    }
                    sessionSetup = List.copyOf(detected.sessionSetup(config));
                    dialect = detected;
                }));
    }

    /** Runs an idempotent preparation step (detection, migration) with the operations' retry rules. */
    private void runPreparation(String operation, Runnable step) {
        retrying(operation, true, () -> {
            step.run();
            return null;
        });
    }

    private PersistenceException translate(String operation, RuntimeException failure, FailureKind kind) {
        SQLException outer = SqlStates.find(failure).orElse(null);
        SQLException driver = SqlStates.innermost(failure).orElse(null);
        String detail = outer == null ? String.valueOf(failure.getMessage()) : outer.getMessage();
        if (driver != null && driver != outer) {
            detail += "; caused by: " + driver.getMessage();
        }
        detail = redactor.redact(detail);
        Throwable cause = redactor.redact(driver != null ? driver : failure);
        String where = dialectName() + " database " + endpoint;
        return switch (kind) {
            case UNAVAILABLE, CONNECTION_LOST ->
                new StorageUnavailableException(where + " is unavailable (" + operation + "): " + detail, cause);
            case STATEMENT_TOO_LARGE ->
                new StatementTooLargeException(
                        operation + " failed on " + where + ": the statement exceeds the server's size limit: "
                                + detail,
                        cause);
            case TRANSIENT ->
                new StorageUnavailableException(
                        where + " stayed busy or deadlocked through " + MAX_TRANSIENT_ATTEMPTS + " attempts ("
                                + operation + "): " + detail,
                        cause);
            default ->
                new PersistenceException(operation + " failed on " + where + ": " + detail, redactor.redact(failure));
        };
    }
}
