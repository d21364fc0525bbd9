package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JDBC-specific behaviour, run on every supported database. */
abstract class JdbcProviderTestBase {
    @TempDir
    Path dir;

    TestDatabase database;
    private final List<JdbcStorageProvider> providers = new ArrayList<>();

    /** This test's database. */
    abstract TestDatabase openDatabase(Path dir);

    @BeforeEach
    void openTestDatabase() {
        database = openDatabase(dir);
    }

    @AfterEach
    void dropTestTables() throws Exception {
        providers.forEach(JdbcStorageProvider::close);
        if (database != null) {
            database.close();
        }
    }

    JdbcStorageProvider provider() {
        var provider = database.newProvider();
        providers.add(provider);
        return provider;
    }

    static String agent(String label) {
        return label + "-" + UUID.randomUUID();
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
    void roundTripsFiltersAndLimits() {
        var provider = provider();
        String agentId = agent("a'; DROP TABLE x;--");
        for (long v = 0; v < 10; v++) {
            provider.saveCheckpoint(agentId, checkpoint(agentId, v));
        }
        assertThat(provider.getCheckpoints(agentId)).extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(provider.getCheckpoint(agentId, "cp-3")).contains(checkpoint(agentId, 3));
        var filter = CheckpointFilter.builder().metadata("parity", "odd").maxVersion(8L).limit(2)
                .createdAfter(checkpoint(agentId, 2).createdAt()).build();
        assertThat(provider.getCheckpoints(agentId, filter)).extracting(AgentCheckpoint::version).containsExactly(5L, 7L);
        assertThat(provider.getLatestCheckpoint(agentId, filter)).map(AgentCheckpoint::version).contains(7L);
        assertThat(provider.getLatestCheckpoint(agentId)).map(AgentCheckpoint::version).contains(9L);
        var before = CheckpointFilter.builder().createdBefore(checkpoint(agentId, 2).createdAt()).nodeId("even").build();
        assertThat(provider.getCheckpoints(agentId, before)).extracting(AgentCheckpoint::version).containsExactly(0L);
        assertThat(provider.deleteCheckpointsBefore(agentId, 4)).isEqualTo(4);
        assertThat(provider.listAgents()).contains(agentId);
        assertThat(provider.deleteCheckpoints(agentId)).isEqualTo(6);
        assertThat(provider.getCheckpoints(agentId)).isEmpty();
    }

    @Test
    void conflictsAndIdenticalResave() {
        var provider = provider();
        String agentId = agent("conflict");
        provider.saveCheckpoint(agentId, checkpoint(agentId, 0));
        provider.saveCheckpoint(agentId, checkpoint(agentId, 0));
        var sameVersion = checkpoint(agentId, 0).toBuilder().checkpointId("other").build();
        assertThatThrownBy(() -> provider.saveCheckpoint(agentId, sameVersion))
                .isInstanceOf(CheckpointConflictException.class);
        var sameId = checkpoint(agentId, 1).toBuilder().checkpointId("cp-0").build();
        assertThatThrownBy(() -> provider.saveCheckpoint(agentId, sameId))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(provider.getCheckpoints(agentId)).containsExactly(checkpoint(agentId, 0));
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
        provider().saveCheckpoint(agentId, checkpoint(agentId, 1));
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
