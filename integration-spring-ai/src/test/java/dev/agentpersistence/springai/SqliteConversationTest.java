package dev.agentpersistence.springai;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** On an SQLite file of this test's own. */
class SqliteConversationTest extends ChatClientConversationContract {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("memory.db"))
                        .build())
                .build();
    }
}
