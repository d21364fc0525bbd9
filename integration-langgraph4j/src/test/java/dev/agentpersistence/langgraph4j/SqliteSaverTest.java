package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteSaverTest extends SaverContractTest {
    @TempDir
    Path dir;

    @Override
    public PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("checkpoints.db"))
                        .build())
                .build();
    }
}
