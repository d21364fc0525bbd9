package dev.agentpersistence.jdbc;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.KitSettings;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit again, writing with every layer on (checksum, compression, encryption, incremental history), on
 * fresh tables of one database.
 */
abstract class JdbcEveryLayerTestBase extends StorageProviderCompatibilityKit {
    @TempDir
    Path dir;

    private TestDatabase database;

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
        return database.newProvider(KitSettings.everyLayer());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return database.newProvider(settings);
    }

    @Override
    protected byte[] dumpStorage() throws Exception {
        return database.dump();
    }
}
