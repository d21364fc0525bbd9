package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.jdbc.internal.SchemaDdl;
import dev.agentpersistence.tck.Checkpoints;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read-only JDBC provider never migrates: it checks the schema version and names both versions when they differ. */
class JdbcReadOnlySchemaTest {
    @TempDir
    Path dir;

    private TestDatabase database;

    @BeforeEach
    void writeNormally() {
        database = TestDatabase.sqlite(dir);
        try (var writer = database.newProvider()) {
            writer.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        }
    }

    @AfterEach
    void drop() throws Exception {
        database.close();
    }

    private int newestVersion() throws Exception {
        try (var connection = database.connect();
                var rows = connection
                        .createStatement()
                        .executeQuery(
                                "SELECT MAX(version) FROM " + database.tables().schemaVersion())) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private void execute(String sql) throws Exception {
        try (var connection = database.connect();
                var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private StorageConfigurationException readOnlyFailure() {
        try (var reader = JdbcStorage.builder(database.config()).readOnly().build()) {
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> reader.listAgents());
            assertThat(failure).isInstanceOf(StorageConfigurationException.class);
            return (StorageConfigurationException) failure;
        }
    }

    @Test
    void aCurrentSchemaReadsAndIsNotMigrated() throws Exception {
        int newest = newestVersion();
        try (var reader = JdbcStorage.builder(database.config()).readOnly().build()) {
            assertThat(reader.getLatestCheckpoint("agent")).contains(Checkpoints.simple("agent", 0));
        }
        assertThat(newestVersion()).isEqualTo(newest);
    }

    @Test
    void aNewerSchemaNamesBothVersions() throws Exception {
        int newest = newestVersion();
        execute("INSERT INTO " + database.tables().schemaVersion() + " (version, description) VALUES (99, 'future')");
        assertThat(readOnlyFailure())
                .isNotInstanceOf(StorageNotFoundException.class)
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("newer than version " + newest);
    }

    @Test
    void anOlderSchemaNamesBothVersionsAndIsNotMigrated() throws Exception {
        int needed = SchemaDdl.READERS_NEED;
        execute("DELETE FROM " + database.tables().schemaVersion() + " WHERE version >= " + needed);
        assertThat(readOnlyFailure())
                .hasMessageContaining("schema version " + (needed - 1))
                .hasMessageContaining("older than version " + needed);
        assertThat(newestVersion()).isEqualTo(needed - 1);
    }

    @Test
    void aSchemaWithoutTheQueueTableReadsWithEmptyQueuesAndIsNotMigrated() throws Exception {
        execute("DELETE FROM " + database.tables().schemaVersion() + " WHERE version = 5");
        execute("DROP TABLE " + database.tables().queueItems());
        try (var reader = JdbcStorage.builder(database.config()).readOnly().build()) {
            assertThat(reader.getLatestCheckpoint("agent")).contains(Checkpoints.simple("agent", 0));
            assertThat(reader.queues().orElseThrow().items("@queue/jobs")).isEmpty();
            assertThat(reader.queues().orElseThrow().item("@queue/jobs", "run")).isEmpty();
        }
        assertThat(newestVersion()).isEqualTo(SchemaDdl.READERS_NEED);
    }

    @Test
    void writesAreRefusedAndStoreNothing() throws Exception {
        try (var reader = JdbcStorage.builder(database.config()).readOnly().build()) {
            assertThatThrownBy(() -> reader.saveCheckpoint("agent", Checkpoints.simple("agent", 1)))
                    .isInstanceOf(dev.agentpersistence.ReadOnlyStorageException.class);
        }
        try (var writer = database.newProvider()) {
            assertThat(writer.getCheckpoints("agent")).hasSize(1);
        }
    }
}
