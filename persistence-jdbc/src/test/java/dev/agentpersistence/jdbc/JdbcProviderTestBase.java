package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit plus JDBC-specific behaviour, run on every supported database. Each test gets
 * its own random table prefix (fresh storage) and drops its tables afterwards.
 */
abstract class JdbcProviderTestBase extends StorageProviderCompatibilityKit {
    @TempDir
    Path dir;

    TestDatabase database;

    /** This test's database. */
    abstract TestDatabase openDatabase(Path dir);

    @BeforeEach
    void openTestDatabase() {
        database = openDatabase(dir);
    }

    @AfterEach
    void dropTestTables() throws Exception {
        if (database != null) {
            database.close();
        }
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return database.newProvider();
    }

    String agent(String label) {
        return uniqueAgentId(label);
    }

    static AgentCheckpoint checkpoint(String agentId, long version) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(Instant.parse("2026-01-01T00:00:00.000000001Z").plusSeconds(version))
                .nodeId(version % 2 == 0 ? "even" : "odd")
                .message(Message.user("hello " + version))
                .state("k", TextNode.valueOf("v" + version))
                .metadata("parity", version % 2 == 0 ? "even" : "odd")
                .build();
    }

    @Test
    void unreadablePayloadIsReportedWithItsLocation() throws Exception {
        var provider = provider();
        String agentId = agent("corrupt");
        provider.saveCheckpoint(agentId, checkpoint(agentId, 0));
        try (var connection = database.connect();
             var update = connection.prepareStatement("UPDATE " + database.tables().checkpoints()
                     + " SET payload = ? WHERE agent_id = ?")) {
            update.setBytes(1, new byte[] {'{', 'x'});
            update.setString(2, agentId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
        assertThatThrownBy(() -> provider.getLatestCheckpoint(agentId))
                .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                    assertThat(e.agentId()).isEqualTo(agentId);
                    assertThat(e.checkpointId()).isEqualTo("cp-0");
                    assertThat(e.location()).contains(database.tables().checkpoints());
                });
    }

    @Test
    void aFailedSaveLeavesNothingBehind() throws Exception {
        var provider = provider();
        String agentId = agent("atomic");
        provider.saveCheckpoint(agentId, checkpoint(agentId, 0));
        try (var connection = database.connect(); var statement = connection.createStatement()) {
            statement.execute("DROP TABLE " + database.tables().metadata());
        }
        assertThatThrownBy(() -> provider.saveCheckpoint(agentId, checkpoint(agentId, 1)))
                .isInstanceOf(dev.agentpersistence.PersistenceException.class);
        try (var connection = database.connect();
             var query = connection.prepareStatement("SELECT COUNT(*) FROM " + database.tables().checkpoints()
                     + " WHERE agent_id = ?")) {
            query.setString(1, agentId);
            try (var rows = query.executeQuery()) {
                rows.next();
                assertThat(rows.getInt(1)).as("the checkpoint row of the failed save was rolled back").isEqualTo(1);
            }
        }
    }

    @Test
    void theSchemaVersionTableRecordsEachMigrationOnce() throws Exception {
        String agentId = agent("schema");
        provider().saveCheckpoint(agentId, checkpoint(agentId, 0));
        database.newProvider().close();
        try (var second = database.newProvider()) {
            second.saveCheckpoint(agentId, checkpoint(agentId, 1));
        }
        try (var connection = database.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT version FROM " + database.tables().schemaVersion())) {
            var versions = new ArrayList<Integer>();
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
            assertThat(versions).containsExactly(1);
        }
    }
}
