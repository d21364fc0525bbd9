package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.storage.StorageSettings;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint larger than the real MariaDB server's {@code max_allowed_packet} is refused with
 * {@link CheckpointTooLargeException} naming the server's limit, stores nothing, and leaves the provider working.
 */
class MariaDbCheckpointTooLargeTest {

    @Test
    void aCheckpointOverMaxAllowedPacketIsRefusedAndNothingIsStored() throws Exception {
        // compression would shrink the repeated text below the limit: this test is about the statement size
        var uncompressed = StorageSettings.custom()
                .layers(DocumentLayers.custom().checksum(true).build())
                .build();
        try (TestDatabase database = TestDatabase.mariaDb();
                var provider = database.newProvider(uncompressed)) {
            long limit = serverLimit(database);
            String agent = "too-large-" + database.prefix();
            AgentCheckpoint first = JdbcProviderTestBase.checkpoint(agent, 0);
            provider.saveCheckpoint(agent, first);
            AgentCheckpoint huge = JdbcProviderTestBase.checkpoint(agent, 1).toBuilder()
                    .message(Message.user("x".repeat(Math.toIntExact(limit + 1024))))
                    .build();

            long started = System.nanoTime();
            assertThatThrownBy(() -> provider.saveCheckpoint(agent, huge))
                    .isInstanceOfSatisfying(CheckpointTooLargeException.class, e -> {
                        assertThat(e.agentId()).isEqualTo(agent);
                        assertThat(e.checkpointId()).isEqualTo(huge.checkpointId());
                        assertThat(e.limit()).isEqualTo(limit);
                        assertThat(e.size()).isGreaterThan(limit);
                        assertThat(e).hasMessageContaining(Long.toString(limit));
                    });
            assertThat((System.nanoTime() - started) / 1_000_000)
                    .as("refused without retries, in ms")
                    .isLessThan(5_000);

            assertThat(provider.getCheckpoints(agent)).containsExactly(first);
            assertThat(provider.getCheckpoint(agent, huge.checkpointId())).isEmpty();
            assertThat(rowCount(database)).isEqualTo(1);

            AgentCheckpoint next = JdbcProviderTestBase.checkpoint(agent, 1);
            provider.saveCheckpoint(agent, next);
            assertThat(provider.getCheckpoints(agent)).containsExactly(first, next);
        }
    }

    @Test
    void aDocumentJustUnderTheLimitIsStillSaved() throws Exception {
        try (TestDatabase database = TestDatabase.mariaDb();
                var provider = database.newProvider()) {
            long limit = serverLimit(database);
            String agent = "under-limit-" + database.prefix();
            AgentCheckpoint big = JdbcProviderTestBase.checkpoint(agent, 0).toBuilder()
                    .message(Message.user("y".repeat(Math.toIntExact(limit / 2))))
                    .build();
            provider.saveCheckpoint(agent, big);
            assertThat(provider.getCheckpoint(agent, big.checkpointId())).contains(big);
        }
    }

    private static long serverLimit(TestDatabase database) throws SQLException {
        try (var connection = database.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT @@max_allowed_packet")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static long rowCount(TestDatabase database) throws SQLException {
        try (var connection = database.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT COUNT(*) FROM " + database.tables().checkpoints())) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
