package dev.agentpersistence.springai;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.jdbc.JdbcStorageProvider;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** On an SQLite file of this test's own. */
class SqliteConversationTest extends ChatClientConversationContract {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return JdbcStorageProvider.create(JdbcStorageConfig.custom()
                .url("jdbc:sqlite:" + dir.resolve("memory.db"))
                .build());
    }
}
