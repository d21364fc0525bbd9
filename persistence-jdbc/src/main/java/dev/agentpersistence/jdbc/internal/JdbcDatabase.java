package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.redaction.Redactor;
import java.sql.SQLException;
import java.util.Objects;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs provider operations against one database: each call makes the database ready first ({@link SchemaReadiness}),
 * takes a connection ({@link ConnectionSource}), holds the write lock where the dialect needs one
 * ({@link WriteSerializer}), and retries and translates failures ({@link Retrier}, {@link FailureTranslator}; a
 * statement over the server's size limit becomes a {@link StatementTooLargeException}, never retried).
 */
public final class JdbcDatabase implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcDatabase.class);

    private final ConnectionSource source;
    private final DatabaseIdentity identity;
    private final Tables tables;
    private final Retrier retrier;
    private final WriteSerializer writes;
    private final SchemaReadiness readiness;
    private final SaveFormChoice saveForms;
    private final StatementLimit statementLimit;
    /** Kept per connection only in the pool this object owns: an application's connections are its own. */
    private final PreparedStatements preparedStatements;

    private JdbcDatabase(
            DataSource dataSource,
            HikariDataSource ownedPool,
            JdbcStorageConfig config,
            Dialect dialect,
            String endpoint,
            boolean readOnly) {
        Redactor redactor = Redactor.forCredentialsIn(config.url())
                .andSecret(config.password().orElse(null));
        this.source = new ConnectionSource(dataSource, ownedPool);
        this.identity = new DatabaseIdentity(dialect, endpoint, redactor);
        this.tables = new Tables(config.tablePrefix());
        this.retrier = new Retrier(identity);
        this.writes = new WriteSerializer(identity);
        this.readiness = new SchemaReadiness(source, identity, config, tables, retrier, writes, readOnly);
        this.saveForms = new SaveFormChoice(identity);
        this.statementLimit = new StatementLimit(() -> read(
                "reading the statement size limit",
                connection -> identity.dialect().maxStatementBytes(connection)));
        this.preparedStatements = new PreparedStatements(() ->
                source.ownsPool() && identity.known() && identity.dialect().keepsPreparedStatements());
    }

    /**
     * A database reached through a pool this object creates and closes; the dialect comes from the URL.
     *
     * @throws dev.agentpersistence.StorageConfigurationException when the URL is not a supported database or no driver
     *     on the class path accepts it (naming the Maven artifact to add)
     */
    public static JdbcDatabase pooled(JdbcStorageConfig config) {
        return pooled(config, false);
    }

    /**
     * As {@link #pooled(JdbcStorageConfig)}; {@code readOnly} opens connections that only read, runs no migration and
     * checks the schema version instead.
     *
     * @throws dev.agentpersistence.StorageNotFoundException when read-only and the database file does not exist
     */
    public static JdbcDatabase pooled(JdbcStorageConfig config, boolean readOnly) {
        Objects.requireNonNull(config, "config");
        Dialect dialect = Dialects.forUrl(config.url());
        Dialects.requireDriver(config.url());
        HikariDataSource pool = PoolFactory.create(config, dialect, readOnly);
        return new JdbcDatabase(pool, pool, config, dialect, config.url(), readOnly);
    }

    /** A database reached through the application's data source; the dialect is detected on first use. */
    public static JdbcDatabase external(DataSource dataSource, JdbcStorageConfig config, boolean readOnly) {
        return new JdbcDatabase(
                Objects.requireNonNull(dataSource, "dataSource"),
                null,
                Objects.requireNonNull(config, "config"),
                null,
                "the application's data source",
                readOnly);
    }

    /** The prepared statements of saves and checkpoint reads, kept per connection where the dialect asks for it. */
    PreparedStatements preparedStatements() {
        return preparedStatements;
    }

    /** The dialect's statement that stores a history segment or sets its write time, if it has one. */
    public java.util.Optional<String> segmentUpsert() {
        return identity.dialect().segmentUpsert(tables());
    }

    /** The table names. */
    public Tables tables() {
        return tables;
    }

    /** The database's URL (password hidden), or a description until it is known. */
    public String endpoint() {
        return identity.endpoint();
    }

    /** The dialect's name, or {@code "unknown"} before the first connection to an external data source. */
    public String dialectName() {
        return identity.dialectName();
    }

    /**
     * The largest statement the server accepts, in bytes, read from the server on the first call and kept for this
     * object's lifetime; empty when the database has no such limit.
     */
    public OptionalLong statementLimit() {
        return statementLimit.get();
    }

    /** How many bytes {@code value} takes in a statement sent to this database. */
    public long statementBytes(byte[] value) {
        readiness.ensureReady();
        return identity.dialect().statementBytes(value);
    }

    /** Runs a read in autocommit. Broken connections are retried, as reads are idempotent. */
    public <T> T read(String operation, ConnectionCall<T> work) {
        return run(operation, false, true, work);
    }

    /**
     * Runs a write in one transaction.
     *
     * @param idempotent whether repeating it after a connection broke mid-way gives the same result
     */
    public <T> T write(String operation, boolean idempotent, ConnectionCall<T> work) {
        return run(operation, true, idempotent, connection -> Transactions.call(connection, work));
    }

    /**
     * Runs an insert; returns {@code false} instead of failing when it hit a duplicate key. With {@code oneStatement}
     * the work is a single statement run in autocommit (the database makes it atomic); otherwise it runs in one
     * transaction. Safe to repeat after a broken connection: the repeat finds its own row.
     */
    public boolean insert(String operation, boolean oneStatement, ConnectionWork work) {
        return run(operation, true, true, connection -> {
            try {
                if (oneStatement) {
                    work.run(connection);
                } else {
                    Transactions.run(connection, work);
                }
                return true;
            } catch (SQLException e) {
                if (FailureKind.of(e, identity.dialect()) == FailureKind.UNIQUE_VIOLATION) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** How saves write their rows: the dialect's form, or {@link SaveForm#STATEMENTS} once the server refused it. */
    public SaveForm saveForm() {
        readiness.ensureReady();
        return saveForms.current();
    }

    /**
     * Whether {@code failure} of a save in {@code form} says the server refuses that form; if so, later saves use
     * {@link SaveForm#STATEMENTS} (logged once).
     */
    public boolean refusedSaveForm(SaveForm form, RuntimeException failure) {
        return saveForms.refusedBy(form, failure);
    }

    /**
     * Whether the metadata table has no foreign key (migration 4 dropped it), so that a deletion must remove
     * checkpoints and their metadata rows in one statement ({@code WITH ... DELETE}).
     */
    public boolean deletesThroughCte() {
        readiness.ensureReady();
        return identity.dialect().ddl().plannedForeignKeys();
    }

    /** The dialect's {@link Dialect#skippingLockedRead()}. */
    public String skippingLockedRead() {
        readiness.ensureReady();
        return identity.dialect().skippingLockedRead();
    }

    /** The dialect's {@link Dialect#lockingRead()}. */
    public String lockingRead() {
        readiness.ensureReady();
        return identity.dialect().lockingRead();
    }

    /** Closes the pool when this object created it. */
    @Override
    public void close() {
        preparedStatements.clear();
        try {
            source.close();
        } catch (Exception e) {
            LOG.warn(
                    "Closing the connection pool of {} failed",
                    identity.endpoint(),
                    identity.redactor().redact(e));
        }
    }

    private <T> T run(String operation, boolean write, boolean idempotent, ConnectionCall<T> work) {
        readiness.ensureReady();
        return retrier.run(operation, idempotent, () -> writes.run(write, () -> source.withConnection(work)));
    }
}
