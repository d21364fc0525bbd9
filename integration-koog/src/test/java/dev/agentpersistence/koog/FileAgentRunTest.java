package dev.agentpersistence.koog;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.file.FileStorageProvider;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileAgentRunTest extends AgentRunContractTest {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<?> openProvider() {
        return FileStorageProvider.of(FileStorageConfig.custom().directory(dir).build());
    }
}
