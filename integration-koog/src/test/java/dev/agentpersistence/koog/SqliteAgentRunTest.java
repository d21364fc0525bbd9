package dev.agentpersistence.koog;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.jdbc.JdbcStorageProvider;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteAgentRunTest extends AgentRunContractTest {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<?> openProvider() {
        return JdbcStorageProvider.create(JdbcStorageConfig.custom()
                .url("jdbc:sqlite:" + dir.resolve("koog.db"))
                .build());
    }
}
