package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.internal.Dialects;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit plus JDBC-specific behaviour, run on every supported database. Each test gets its own random
 * table prefix (fresh storage) and drops its tables afterwards.
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

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return database.newProvider(settings);
    }

    @Override
    protected byte[] dumpStorage() throws Exception {
        return database.dump();
    }

    @Override
    protected dev.agentpersistence.tck.AbsentStore absentStore() {
        return database.absent(dir);
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
                .message(Message.user("hello " + version).withId("m-" + version))
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
                var update = connection.prepareStatement(
                        "UPDATE " + database.tables().checkpoints() + " SET payload = ? WHERE agent_id = ?")) {
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
        try (var connection = database.connect();
                var statement = connection.createStatement()) {
            statement.execute("DROP TABLE " + database.tables().metadata());
        }
        assertThatThrownBy(() -> provider.saveCheckpoint(agentId, checkpoint(agentId, 1)))
                .isInstanceOf(dev.agentpersistence.PersistenceException.class);
        assertThat(rowsOf(database.tables().checkpoints(), agentId))
                .as("the checkpoint row of the failed save was rolled back")
                .isEqualTo(1);
    }

    @Test
    void theSchemaVersionTableRecordsEachMigrationOnce() throws Exception {
        String agentId = agent("schema");
        provider().saveCheckpoint(agentId, checkpoint(agentId, 0));
        database.newProvider().close();
        try (var second = database.newProvider()) {
            second.saveCheckpoint(agentId, checkpoint(agentId, 1));
        }
        try (var connection = database.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT version FROM " + database.tables().schemaVersion())) {
            var versions = new ArrayList<Integer>();
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
            assertThat(versions).containsExactlyInAnyOrder(1, 2, 3, 4, 5);
            assertThat(versions)
                    .hasSameSizeAs(Dialects.forUrl(database.url()).ddl().migrations(database.tables()));
        }
    }

    @Test
    void aVersionOneSchemaIsUpgradedInPlace() throws Exception {
        var dialect = Dialects.forUrl(database.url());
        try (var connection = database.connect();
                var statement = connection.createStatement()) {
            statement.execute(dialect.ddl().schemaVersionTable(database.tables()));
            for (String ddl : dialect.ddl().version1(database.tables())) {
                statement.execute(ddl);
            }
            statement.execute("INSERT INTO " + database.tables().schemaVersion()
                    + " (version, description) VALUES (1, 'checkpoints, metadata and their indexes')");
        }
        String before = agent("before-upgrade");
        try (var versionOne = JdbcStorage.builder(
                        database.config().toBuilder().migrate(false).build())
                .build()) {
            versionOne.saveCheckpoint(before, checkpoint(before, 0));
        }
        String agentId = agent("upgraded");
        try (var upgraded = database.newProvider()) {
            upgraded.saveCheckpoint(agentId, checkpoint(agentId, 0));
            upgraded.storedForm().orElseThrow().segments().putSegment(agentId, "s", new byte[] {1, 2});
            assertThat(upgraded.getCheckpoints(agentId)).containsExactly(checkpoint(agentId, 0));
            assertThat(upgraded.storedForm().orElseThrow().segments().getSegments(agentId, java.util.List.of("s")))
                    .containsOnlyKeys("s");
            assertThat(upgraded.getCheckpoints(before)).containsExactly(checkpoint(before, 0));
            upgraded.deleteCheckpointsBefore(before, 1);
            assertThat(upgraded.getCheckpoints(before)).isEmpty();
        }
        assertThat(metadataRows(before))
                .as("metadata rows deleted with their checkpoint")
                .isZero();
        assertThat(metadataForeignKeys())
                .as("the metadata table keeps its foreign key unless checks are planned"
                        + " from statistics (migration 4)")
                .isEqualTo(dialect.ddl().plannedForeignKeys() ? 0 : 1);
    }

    @Test
    void deletionsRacingSavesLeaveNoMetadataBehind() throws Exception {
        var provider = provider();
        String agentId = agent("racing-delete");
        int rounds = 40;
        for (int round = 0; round < rounds; round++) {
            long base = round * 100L;
            var saves = java.util.concurrent.CompletableFuture.runAsync(() -> {
                for (long v = base; v < base + 20; v++) {
                    provider.saveCheckpoint(agentId, checkpoint(agentId, v));
                }
            });
            var failures = new ArrayList<Throwable>();
            for (int i = 0; i < 5; i++) {
                try {
                    provider.deleteCheckpointsBefore(agentId, base + 20);
                } catch (dev.agentpersistence.PersistenceException e) {
                    failures.add(e); // where a foreign key turns the race into a failed deletion
                }
            }
            saves.join();
            if (Dialects.forUrl(database.url()).ddl().plannedForeignKeys()) {
                assertThat(failures)
                        .as("deletions in one statement never collide with saves")
                        .isEmpty();
            }
            provider.deleteCheckpointsBefore(agentId, base + 20);
            assertThat(provider.getCheckpoints(agentId)).isEmpty();
            assertThat(metadataRows(agentId))
                    .as("round " + round + ": metadata rows without their checkpoint")
                    .isZero();
        }
    }

    private int metadataRows(String agentId) throws Exception {
        return rowsOf(database.tables().metadata(), agentId);
    }

    /** How many rows of {@code table} belong to {@code agentId}. */
    private int rowsOf(String table, String agentId) throws Exception {
        try (var connection = database.connect();
                var query = connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE agent_id = ?")) {
            query.setString(1, agentId);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private int metadataForeignKeys() throws Exception {
        try (var connection = database.connect()) {
            var meta = connection.getMetaData();
            String table = database.tables().metadata();
            table = meta.storesUpperCaseIdentifiers()
                    ? table.toUpperCase(java.util.Locale.ROOT)
                    : meta.storesLowerCaseIdentifiers() ? table.toLowerCase(java.util.Locale.ROOT) : table;
            int keys = 0;
            try (var rows = meta.getImportedKeys(connection.getCatalog(), null, table)) {
                while (rows.next()) {
                    keys = Math.max(keys, 1);
                }
            }
            return keys;
        }
    }

    @Test
    void checkpointsExpireAfterTheirTimeToLiveAtTheNextSweep() {
        var clock = new java.util.concurrent.atomic.AtomicReference<>(Instant.parse("2026-05-01T00:00:00Z"));
        var ticking = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return clock.get();
            }
        };
        String agentId = agent("ttl");
        String other = agent("ttl-other");
        try (var expiring = database.newProvider(java.time.Duration.ofHours(1), ticking)) {
            expiring.saveCheckpoint(agentId, checkpoint(agentId, 0));
            expiring.saveCheckpoint(agentId, checkpoint(agentId, 1));
            provider().saveCheckpoint(other, checkpoint(other, 0));
            clock.set(clock.get().plus(java.time.Duration.ofMinutes(90)));
            expiring.saveCheckpoint(agentId, checkpoint(agentId, 2));
            assertThat(expiring.getCheckpoints(agentId))
                    .as("expired rows stay until the sweep")
                    .hasSize(3);
            assertThat(expiring.deleteExpired()).isGreaterThanOrEqualTo(2);
            assertThat(expiring.getCheckpoints(agentId)).containsExactly(checkpoint(agentId, 2));
            assertThat(expiring.getCheckpoints(
                            agentId,
                            CheckpointFilter.builder()
                                    .metadata("parity", "even")
                                    .build()))
                    .containsExactly(checkpoint(agentId, 2));
            assertThat(provider().getCheckpoints(other))
                    .as("rows without a time to live never expire")
                    .containsExactly(checkpoint(other, 0));
            var report = dev.agentpersistence.history.RetentionSweeper.builder(expiring)
                    .clock(ticking)
                    .build()
                    .sweep(java.util.List.of(agentId));
            assertThat(report.failedAgents()).isEmpty();
        }
    }
}
