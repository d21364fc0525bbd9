package dev.agentpersistence.koog;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteAgentRunTest extends AgentRunContractTest {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<?> openProvider() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("koog.db"))
                        .build())
                .build();
    }
}
