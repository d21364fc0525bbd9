package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileSaverTest extends SaverContractTest {
    @TempDir
    Path dir;

    @Override
    public PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return FileStorage.builder(FileStorageConfig.custom().directory(dir).build())
                .build();
    }
}
