package dev.agentpersistence.adk;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** On embedded SQLite, one database file per test. */
class SqliteSessionServiceTest extends StoredSessionContract {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("adk.db"))
                        .build())
                .build();
    }
}
