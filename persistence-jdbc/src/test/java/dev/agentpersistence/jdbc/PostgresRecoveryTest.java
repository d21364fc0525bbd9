package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.storage.StorageShell;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's PostgreSQL connections are killed with {@code pg_terminate_backend} from a separate admin connection
 * while it is in use: every call either succeeds or throws {@link StorageUnavailableException}, and the same instance
 * then works with nothing lost. Only the provider's own backends are terminated (found by their
 * {@code application_name}).
 */
class PostgresRecoveryTest {
    private TestDatabase database;
    private String applicationName;
    private StorageShell provider;

    @BeforeEach
    void start() {
        database = TestDatabase.postgres();
        applicationName = "agent-persistence-recovery-" + database.prefix();
        String url = database.url() + (database.url().contains("?") ? "&" : "?") + "ApplicationName=" + applicationName;
        provider = JdbcStorage.builder(database.config().toBuilder().url(url).build())
                .build();
    }

    @AfterEach
    void stop() throws SQLException {
        provider.close();
        database.close();
    }

    @Test
    void afterItsConnectionsAreTerminatedTheSameInstanceWorks() throws Exception {
        String agent = "recovery-" + database.prefix();
        var saved = new ArrayList<AgentCheckpoint>();
        for (long v = 0; v < 3; v++) {
            saved.add(save(agent, v));
        }
        try (Connection admin = database.connect()) {
            assertThat(terminateProviderBackends(admin)).isPositive();
        }
        var pending = new ArrayList<AgentCheckpoint>();
        for (long v = 3; v < 6; v++) {
            var checkpoint = JdbcProviderTestBase.checkpoint(agent, v);
            try {
                provider.saveCheckpoint(agent, checkpoint);
                saved.add(checkpoint);
            } catch (StorageUnavailableException e) {
                pending.add(checkpoint);
            }
        }
        for (AgentCheckpoint checkpoint : pending) {
            provider.saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        assertThat(provider.getCheckpoints(agent)).containsExactlyElementsOf(sorted(saved));
    }

    @Test
    void connectionsTerminatedMidUseLoseNothing() throws Exception {
        String agent = "midway-" + database.prefix();
        var saved = new ArrayList<AgentCheckpoint>();
        for (long v = 0; v < 3; v++) {
            saved.add(save(agent, v));
        }
        var stop = new AtomicBoolean();
        var terminated = new AtomicInteger();
        var killerFailure = new ArrayList<Throwable>();
        Thread killer = new Thread(
                () -> {
                    try (Connection admin = database.connect()) {
                        while (!stop.get()) {
                            terminated.addAndGet(terminateProviderBackends(admin));
                            Thread.sleep(150);
                        }
                    } catch (Exception e) {
                        killerFailure.add(e);
                    }
                },
                "pg-terminator");
        killer.start();

        var pending = new ArrayList<AgentCheckpoint>();
        int unavailable = 0;
        long deadline = System.nanoTime() + 2_000_000_000L;
        try {
            for (long v = 3; v < 200 && (System.nanoTime() < deadline || v < 8); v++) {
                var checkpoint = JdbcProviderTestBase.checkpoint(agent, v);
                try {
                    provider.saveCheckpoint(agent, checkpoint);
                    saved.add(checkpoint);
                } catch (StorageUnavailableException e) {
                    pending.add(checkpoint);
                    unavailable++;
                }
                try {
                    assertThat(provider.getLatestCheckpoint(agent)).isPresent();
                } catch (StorageUnavailableException e) {
                    unavailable++;
                }
            }
        } finally {
            stop.set(true);
            killer.join();
        }
        assertThat(killerFailure).isEmpty();
        assertThat(terminated.get())
                .as("backends terminated while the provider was in use")
                .isPositive();

        for (AgentCheckpoint checkpoint : pending) {
            provider.saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        assertThat(provider.getCheckpoints(agent)).containsExactlyElementsOf(sorted(saved));
        System.out.printf(
                "terminated %d backends; %d calls saw StorageUnavailableException; %d saves%n",
                terminated.get(), unavailable, saved.size());
    }

    private AgentCheckpoint save(String agent, long version) {
        var checkpoint = JdbcProviderTestBase.checkpoint(agent, version);
        provider.saveCheckpoint(agent, checkpoint);
        return checkpoint;
    }

    private int terminateProviderBackends(Connection admin) throws SQLException {
        try (var statement = admin.prepareStatement("SELECT count(*) FROM (SELECT pg_terminate_backend(pid)"
                + " FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()) AS killed")) {
            statement.setString(1, applicationName);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static List<AgentCheckpoint> sorted(List<AgentCheckpoint> checkpoints) {
        return checkpoints.stream()
                .sorted(java.util.Comparator.comparingLong(AgentCheckpoint::version))
                .toList();
    }
}
