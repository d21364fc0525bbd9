package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The conformance kit every provider passes, run against the custom JSON Lines provider (fsync on). */
class JsonLinesStorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    @TempDir
    Path directory;

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return JsonLinesStorageProvider.open(directory.resolve("checkpoints.jsonl"));
    }
}
