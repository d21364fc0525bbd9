package dev.agentpersistence.adk;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** On the file provider, one directory per test. */
class FileArtifactServiceTest extends StoredArtifactContract {
    @TempDir
    Path dir;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return FileStorage.builder(dir.resolve("checkpoints")).build();
    }
}
