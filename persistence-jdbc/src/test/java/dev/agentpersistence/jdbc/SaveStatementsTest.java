package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.Message;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How many statements and commits a save sends: one autocommitted statement for every save on MariaDB, for a checkpoint
 * with metadata on PostgreSQL and for one without metadata anywhere, a transaction otherwise; the rows are those every
 * reader expects either way.
 */
class SaveStatementsTest {
    @TempDir
    Path dir;

    @Test
    void onPostgresACheckpointAndItsMetadataAreOneStatement() throws Exception {
        try (TestDatabase database = TestDatabase.postgres()) {
            assertSavedInOneStatement(database, StorageSettings.ofDefaults());
        }
    }

    @Test
    void onMariaDbEverySaveIsOneCompoundStatement() throws Exception {
        try (TestDatabase database = TestDatabase.mariaDb()) {
            assertSavedInOneStatement(
                    database,
                    StorageSettings.custom().ttl(java.time.Duration.ofHours(1)).build());
            assertThat(expiryRows(database, "cp-1"))
                    .as("the expiry row, written in the same statement")
                    .isEqualTo(1);
        }
    }

    /**
     * A save with metadata (and an expiry, when {@code settings} have a time to live) is one statement and no commit; a
     * refused save leaves the stored rows as they were and the connection fit for the next.
     */
    private static void assertSavedInOneStatement(TestDatabase database, StorageSettings settings) throws Exception {
        withCountedProvider(database.url(), database.config(), settings, (provider, counted) -> {
            provider.saveCheckpoint("a", checkpoint(0, Map.of()));
            counted.reset();
            provider.saveCheckpoint("a", checkpoint(1, Map.of("phase", "work", "team", "blue")));
            assertThat(counted.executed).as("statements of a save").hasValue(1);
            assertThat(counted.commits).as("explicit commits").hasValue(0);

            assertThat(metadataRows(database, "cp-1"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work", "team", "blue"));
            assertThat(provider.getLatestCheckpoint(
                            "a",
                            dev.agentpersistence.CheckpointFilter.builder()
                                    .metadata("team", "blue")
                                    .build()))
                    .map(AgentCheckpoint::checkpointId)
                    .hasValue("cp-1");

            assertThatThrownBy(() -> provider.saveCheckpoint("a", checkpoint(1, Map.of("phase", "other"))))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThat(metadataRows(database, "cp-1"))
                    .as("the refused save left no rows")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work", "team", "blue"));

            provider.saveCheckpoint("a", checkpoint(2, Map.of("phase", "after")));
            assertThat(metadataRows(database, "cp-2"))
                    .as("committed on the same connection after the refusal," + " seen from another")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "after"));
        });
    }

    @Test
    void onMariaDbASaveWithItsLogEntriesIsOneStatementAndOneAfterAMovedHeadWritesNothing() throws Exception {
        try (TestDatabase database = TestDatabase.mariaDb()) {
            assertLogRowSavesInOneStatement(database, Duration.ofHours(1));
        }
    }

    @Test
    void onPostgresASaveWithItsLogEntriesIsOneStatementAndOneAfterAMovedHeadWritesNothing() throws Exception {
        try (TestDatabase database = TestDatabase.postgres()) {
            assertLogRowSavesInOneStatement(database, null);
        }
    }

    /**
     * Saves that write message-log rows, stating their head or not, are one statement and no commit (with a time to
     * live {@code ttl}, or none when null); a save after a moved head is refused and writes no row.
     */
    private static void assertLogRowSavesInOneStatement(TestDatabase database, Duration ttl) throws Exception {
        var builder = StorageSettings.custom()
                .history(IncrementalHistoryConfig.custom().blockSize(1).build());
        if (ttl != null) {
            builder.ttl(ttl);
        }
        StorageSettings settings = builder.build();
        int expiryRowsPerCheckpoint = ttl == null ? 0 : 1;
        withCountedProvider(database.url(), database.config(), settings, (provider, counted) -> {
            AgentCheckpoint v0 = checkpoint(0, Map.of());
            provider.saveCheckpointAfter("a", Optional.empty(), v0);
            int segmentsBefore = segmentRows(database);
            counted.reset();
            AgentCheckpoint v1 = checkpoint(1, Map.of("phase", "work", "team", "blue"));
            provider.saveCheckpointAfter("a", Optional.of(v0), v1);
            assertThat(counted.executed)
                    .as("statements of a save that states its head")
                    .hasValue(1);
            assertThat(counted.commits).as("explicit commits").hasValue(0);
            assertThat(segmentRows(database))
                    .as("the save's log entry, written in the same statement")
                    .isGreaterThan(segmentsBefore);
            assertThat(metadataRows(database, "cp-1"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work", "team", "blue"));
            assertThat(expiryRows(database, "cp-1")).isEqualTo(expiryRowsPerCheckpoint);

            int segmentsAfter = segmentRows(database);
            assertThatThrownBy(() -> provider.saveCheckpointAfter("a", Optional.of(v0), checkpoint(2, Map.of())))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThat(segmentRows(database))
                    .as("a refused save writes no segment")
                    .isEqualTo(segmentsAfter);
            assertThat(metadataRows(database, "cp-2")).isEmpty();
            assertThat(provider.getCheckpoints("a"))
                    .extracting(AgentCheckpoint::checkpointId)
                    .containsExactlyInAnyOrder("cp-0", "cp-1");

            provider.saveCheckpointAfter("a", Optional.of(v1), checkpoint(2, Map.of("phase", "after")));
            assertThat(provider.getLatestCheckpoint("a"))
                    .map(AgentCheckpoint::checkpointId)
                    .hasValue("cp-2");

            int segmentsBeforePlain = segmentRows(database);
            counted.reset();
            provider.saveCheckpoint("a", checkpoint(3, Map.of("phase", "plain")));
            assertThat(counted.executed)
                    .as("statements of a plain save with its log entry")
                    .hasValue(1);
            assertThat(counted.commits).as("explicit commits").hasValue(0);
            assertThat(segmentRows(database)).isGreaterThan(segmentsBeforePlain);
            assertThat(expiryRows(database, "cp-3")).isEqualTo(expiryRowsPerCheckpoint);
            assertThatThrownBy(() -> provider.saveCheckpoint("a", checkpoint(3, Map.of("phase", "other"))))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThat(metadataRows(database, "cp-3")).containsExactlyInAnyOrderEntriesOf(Map.of("phase", "plain"));
        });
    }

    @Test
    void onMariaDbServerPreparedStatementsKeepTheOneStatementSave() throws Exception {
        try (TestDatabase database = TestDatabase.mariaDb()) {
            withCountedProvider(
                    urlWith(database, "useServerPrepStmts=true"), database.config(), (provider, counted) -> {
                        provider.saveCheckpoint("a", checkpoint(0, Map.of("phase", "first")));
                        counted.reset();
                        provider.saveCheckpoint("a", checkpoint(1, Map.of("phase", "work")));
                        assertThat(counted.executed).as("statements of a save").hasValue(1);
                        assertThat(metadataRows(database, "cp-1"))
                                .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work"));
                        assertThatThrownBy(() -> provider.saveCheckpoint("a", checkpoint(1, Map.of("phase", "other"))))
                                .isInstanceOf(CheckpointConflictException.class);
                        assertConditionalSavesHold(provider);
                    });
        }
    }

    @Test
    void onMariaDbInOracleModeSavesFallBackToATransaction() throws Exception {
        try (TestDatabase database = TestDatabase.mariaDb()) {
            // sql_mode=ORACLE parses blocks as PL/SQL, where BEGIN NOT ATOMIC is a syntax error
            withCountedProvider(
                    urlWith(database, "sessionVariables=sql_mode=ORACLE"), database.config(), (provider, counted) -> {
                        provider.saveCheckpoint("a", checkpoint(0, Map.of("phase", "first")));
                        counted.reset();
                        provider.saveCheckpoint("a", checkpoint(1, Map.of("phase", "work", "team", "blue")));
                        assertThat(counted.executed)
                                .as("the checkpoint row, then every metadata row at once")
                                .hasValue(2);
                        assertThat(counted.commits).hasValue(1);
                        assertThat(metadataRows(database, "cp-0"))
                                .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "first"));
                        assertThat(metadataRows(database, "cp-1"))
                                .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work", "team", "blue"));
                        assertConditionalSavesHold(provider);
                    });
        }
    }

    @Test
    void withoutMetadataOneInsertAndWithMetadataOneTransaction() throws Exception {
        try (TestDatabase database = TestDatabase.sqlite(dir)) {
            withCountedProvider(database.url(), database.config(), (provider, counted) -> {
                provider.saveCheckpoint("a", checkpoint(0, Map.of()));
                counted.reset();
                provider.saveCheckpoint("a", checkpoint(1, Map.of()));
                assertThat(counted.executed).hasValue(1);
                assertThat(counted.commits).hasValue(0);

                counted.reset();
                provider.saveCheckpoint("a", checkpoint(2, Map.of("phase", "work", "team", "blue")));
                assertThat(counted.executed)
                        .as("the checkpoint row, then every metadata row at once")
                        .hasValue(2);
                assertThat(counted.commits).hasValue(1);
                assertThat(metadataRows(database, "cp-2"))
                        .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "work", "team", "blue"));
            });
        }
    }

    @Test
    void aBatchSaveIsOneTransactionPer200CheckpointsOnEveryDatabase() throws Exception {
        try (TestDatabase postgres = TestDatabase.postgres();
                TestDatabase mariaDb = TestDatabase.mariaDb();
                TestDatabase sqlite = TestDatabase.sqlite(dir);
                TestDatabase h2 = TestDatabase.h2(dir)) {
            for (TestDatabase database : List.of(postgres, mariaDb, sqlite, h2)) {
                assertBatchedWithRowsOfSingleSaves(database);
            }
        }
    }

    /**
     * 450 checkpoints with metadata and an expiry are 3 transactions of batches, with the rows single saves write; a
     * batch with a conflict in it stores every other checkpoint and no row of the refused one.
     */
    private static void assertBatchedWithRowsOfSingleSaves(TestDatabase database) throws Exception {
        var settings = StorageSettings.custom().ttl(Duration.ofHours(1)).build();
        withCountedProvider(database.url(), database.config(), settings, (provider, counted) -> {
            provider.checkHealth();
            var batch = new ArrayList<AgentCheckpoint>();
            for (int version = 0; version < 450; version++) {
                batch.add(checkpoint(version, Map.of("phase", "p" + version, "team", "blue")));
            }
            counted.reset();
            assertThat(provider.saveCheckpoints(batch)).allMatch(SaveResult::saved);
            assertThat(counted.commits).as("commits on %s", database.url()).hasValue(3);
            assertThat(metadataRows(database, "cp-449"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("phase", "p449", "team", "blue"));
            assertThat(expiryRows(database, "cp-0")).isEqualTo(1);
            assertThat(expiryRows(database, "cp-449")).isEqualTo(1);
            assertThat(provider.getCheckpoints("a")).containsExactlyElementsOf(batch);

            var intruder = checkpoint(500, Map.of("phase", "intruder")).toBuilder()
                    .checkpointId("cp-intruder")
                    .version(449)
                    .build();
            var results = provider.saveCheckpoints(List.of(
                    checkpoint(450, Map.of("phase", "p450")), intruder, checkpoint(451, Map.of("phase", "p451"))));
            assertThat(results).extracting(SaveResult::saved).containsExactly(true, false, true);
            assertThat(metadataRows(database, "cp-intruder")).isEmpty();
            assertThat(expiryRows(database, "cp-intruder")).isZero();
            assertThat(metadataRows(database, "cp-451")).containsExactlyEntriesOf(Map.of("phase", "p451"));
            assertThat(provider.getCheckpoints("a")).hasSize(452);
        });
    }

    /** On an agent whose head is {@code cp-1}: a save after a stale head is refused, one after the head stored. */
    private static void assertConditionalSavesHold(StorageShell provider) {
        AgentCheckpoint head = provider.getLatestCheckpoint("a").orElseThrow();
        assertThat(head.checkpointId()).isEqualTo("cp-1");
        AgentCheckpoint stale = provider.getCheckpoint("a", "cp-0").orElseThrow();
        assertThatThrownBy(() -> provider.saveCheckpointAfter("a", Optional.of(stale), checkpoint(2, Map.of())))
                .isInstanceOf(CheckpointConflictException.class);
        provider.saveCheckpointAfter("a", Optional.of(head), checkpoint(2, Map.of("phase", "after")));
        assertThat(provider.getLatestCheckpoint("a"))
                .map(AgentCheckpoint::checkpointId)
                .hasValue("cp-2");
    }

    /** What a test does with a provider whose statements and commits {@code counted} counts. */
    @FunctionalInterface
    private interface CountedWork {
        void run(StorageShell provider, CountingDataSource counted) throws Exception;
    }

    /** Runs {@code work} with a provider over {@code url} reached through one counted, pooled connection. */
    private static void withCountedProvider(String url, JdbcStorageConfig config, CountedWork work) throws Exception {
        withCountedProvider(url, config, StorageSettings.ofDefaults(), work);
    }

    /** As above, the provider writing with {@code settings}. */
    private static void withCountedProvider(
            String url, JdbcStorageConfig config, StorageSettings settings, CountedWork work) throws Exception {
        var counted = new CountingDataSource(url);
        try (var pool = pool(counted);
                var provider =
                        JdbcStorage.builder(config, pool).settings(settings).build()) {
            work.run(provider, counted);
        }
    }

    /** The database's URL with one more driver {@code parameter} ({@code name=value}). */
    private static String urlWith(TestDatabase database, String parameter) {
        return database.url() + (database.url().contains("?") ? "&" : "?") + parameter;
    }

    /** One pooled connection, so session set-up runs once and is not counted after the first save. */
    private static HikariDataSource pool(DataSource counted) {
        var config = new HikariConfig();
        config.setDataSource(counted);
        config.setMaximumPoolSize(1);
        return new HikariDataSource(config);
    }

    /** Checkpoint {@code cp-<version>} of agent {@code a}, with one message and {@code metadata}. */
    static AgentCheckpoint checkpoint(long version, Map<String, String> metadata) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId("a")
                .version(version)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version))
                .message(Message.user("hello " + version))
                .metadata(metadata)
                .build();
    }

    private static Map<String, String> metadataRows(TestDatabase database, String checkpointId) throws SQLException {
        var rows = new TreeMap<String, String>();
        try (var connection = database.connect();
                var select = connection.prepareStatement("SELECT meta_key, meta_value FROM "
                        + database.tables().metadata() + " WHERE checkpoint_id = ?")) {
            select.setString(1, checkpointId);
            try (var found = select.executeQuery()) {
                while (found.next()) {
                    rows.put(
                            new String(found.getBytes(1), StandardCharsets.UTF_8),
                            new String(found.getBytes(2), StandardCharsets.UTF_8));
                }
            }
        }
        return rows;
    }

    private static int segmentRows(TestDatabase database) throws SQLException {
        try (var connection = database.connect();
                var select = connection.prepareStatement(
                        "SELECT COUNT(*) FROM " + database.tables().historySegments())) {
            try (var found = select.executeQuery()) {
                found.next();
                return found.getInt(1);
            }
        }
    }

    private static int expiryRows(TestDatabase database, String checkpointId) throws SQLException {
        try (var connection = database.connect();
                var select = connection.prepareStatement(
                        "SELECT COUNT(*) FROM " + database.tables().checkpointExpiry() + " WHERE checkpoint_id = ?")) {
            select.setString(1, checkpointId);
            try (var found = select.executeQuery()) {
                found.next();
                return found.getInt(1);
            }
        }
    }

    /** Connections of the driver, counting the statements executed and the commits on them. */
    private static final class CountingDataSource implements DataSource {
        final AtomicInteger executed = new AtomicInteger();
        final AtomicInteger commits = new AtomicInteger();
        private final String url;

        CountingDataSource(String url) {
            this.url = url;
        }

        void reset() {
            executed.set(0);
            commits.set(0);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection real = DriverManager.getConnection(url);
            return proxy(Connection.class, real, (method, result) -> {
                if (method.equals("commit")) {
                    commits.incrementAndGet();
                }
                if (result instanceof PreparedStatement statement) {
                    return counting(PreparedStatement.class, statement);
                }
                if (result instanceof Statement statement) {
                    return counting(Statement.class, statement);
                }
                return result;
            });
        }

        private <T> T counting(Class<T> type, T statement) {
            return proxy(type, statement, (method, result) -> {
                if (method.startsWith("execute")) {
                    executed.incrementAndGet();
                }
                return result;
            });
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }

        private interface AfterCall {
            Object after(String method, Object result);
        }

        private static <T> T proxy(Class<T> type, T target, AfterCall after) {
            InvocationHandler handler = (self, method, args) -> {
                try {
                    return after.after(method.getName(), method.invoke(target, args));
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return type.cast(
                    Proxy.newProxyInstance(SaveStatementsTest.class.getClassLoader(), new Class<?>[] {type}, handler));
        }
    }
}
