package dev.agentpersistence.koog;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileAgentRunTest extends AgentRunContractTest {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<?> openProvider() {
        return FileStorage.builder(FileStorageConfig.custom().directory(dir).build())
                .build();
    }
}
