package dev.agentpersistence.jackson3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.tck.AbsentStore;
import dev.agentpersistence.tck.JsonWriter;
import dev.agentpersistence.tck.StorageDumps;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The conformance kit with a Jackson 3 writer in its read matrix: the matrix's checkpoints once more, every JSON value
 * parsed by a Jackson 3 {@link JsonMapper} and stored through {@link Jackson3Nodes#toStored}, written with each
 * configuration; their documents are byte for byte the Jackson 2 ones and every configuration reads them back equal.
 */
class Jackson3ReadMatrixTest extends StorageProviderCompatibilityKit {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @TempDir
    Path root;

    @Override
    protected List<JsonWriter> jsonWriters() {
        return List.of(new JsonWriter("Jackson 3", value -> Jackson3Nodes.toStored(MAPPER.readTree(value.toString()))));
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return createProvider(StorageSettings.ofDefaults());
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return FileStorage.builder(FileStorageConfig.custom().directory(root).build())
                .settings(settings)
                .build();
    }

    @Override
    protected AbsentStore absentStore() {
        Path absent = root.resolve("absent").resolve("checkpoints");
        return AbsentStore.inDirectory(
                absent.getParent(),
                settings -> FileStorage.builder(absent).settings(settings).build());
    }

    @Override
    protected byte[] dumpStorage() {
        return StorageDumps.directory(root);
    }
}
