package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteException;

/** SQLite allows one writer at a time; {@code SQLITE_BUSY} must never reach callers as a raw driver error. */
class SqliteWriteSerializationTest {
    @TempDir
    Path dir;

    private TestDatabase database;
    private final List<StorageShell> providers = new ArrayList<>();

    @BeforeEach
    void open() {
        database = TestDatabase.sqlite(dir);
    }

    @AfterEach
    void close() {
        providers.forEach(StorageShell::close);
    }

    private StorageShell provider(Duration busyTimeout) {
        var provider = JdbcStorage.builder(
                        database.config().toBuilder().busyTimeout(busyTimeout).build())
                .build();
        providers.add(provider);
        return provider;
    }

    @Test
    void manyThreadsOnTwoProvidersOverOneFileAllSucceed() throws Exception {
        var first = provider(Duration.ofSeconds(10));
        var second = provider(Duration.ofSeconds(10));
        int threads = 8;
        int perThread = 15;
        var tasks = new ArrayList<Callable<Void>>();
        for (int t = 0; t < threads; t++) {
            var provider = t % 2 == 0 ? first : second;
            String agent = "writer-" + t;
            tasks.add(() -> {
                for (long v = 0; v < perThread; v++) {
                    provider.saveCheckpoint(agent, JdbcProviderTestBase.checkpoint(agent, v));
                    provider.getLatestCheckpoint(agent);
                }
                return null;
            });
        }
        var pool = Executors.newFixedThreadPool(threads);
        try {
            for (Future<Void> result : pool.invokeAll(tasks, 120, TimeUnit.SECONDS)) {
                result.get();
            }
        } finally {
            pool.shutdownNow();
        }
        for (int t = 0; t < threads; t++) {
            assertThat(first.getCheckpoints("writer-" + t)).hasSize(perThread);
        }
    }

    @Test
    void aSaveWaitsForAnotherProcessHoldingTheWriteLock() throws Exception {
        var provider = provider(Duration.ofSeconds(10));
        provider.listAgents();
        AgentCheckpoint checkpoint = JdbcProviderTestBase.checkpoint("waiting", 0);
        try (Connection other = DriverManager.getConnection(database.url())) {
            other.setAutoCommit(false);
            try (var statement = other.createStatement()) {
                statement.execute("DELETE FROM " + database.tables().checkpoints() + " WHERE agent_id = 'nobody'");
            }
            var releaser = Executors.newSingleThreadScheduledExecutor();
            try {
                releaser.schedule(
                        () -> {
                            other.commit();
                            return null;
                        },
                        300,
                        TimeUnit.MILLISECONDS);
                provider.saveCheckpoint("waiting", checkpoint);
            } finally {
                releaser.shutdown();
                assertThat(releaser.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            }
        }
        assertThat(provider.getCheckpoints("waiting")).containsExactly(checkpoint);
    }

    @Test
    void aLockHeldPastTheBusyTimeoutIsReportedAsUnavailable() throws Exception {
        var provider = provider(Duration.ofMillis(50));
        provider.listAgents();
        try (Connection other = DriverManager.getConnection(database.url())) {
            other.setAutoCommit(false);
            try (var statement = other.createStatement()) {
                statement.execute("DELETE FROM " + database.tables().checkpoints() + " WHERE agent_id = 'nobody'");
            }
            assertThatThrownBy(() -> provider.saveCheckpoint("blocked", JdbcProviderTestBase.checkpoint("blocked", 0)))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("busy")
                    .hasCauseInstanceOf(SQLiteException.class);
            other.rollback();
        }
        provider.saveCheckpoint("blocked", JdbcProviderTestBase.checkpoint("blocked", 0));
        assertThat(provider.getCheckpoints("blocked")).hasSize(1);
    }
}
