package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.Checkpoints;
import dev.agentpersistence.tck.StorageDumps;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read-only file provider writes nothing, also where a reader would repair: the head file of the per-file form. */
class FileReadOnlyTest {
    @TempDir
    Path root;

    @Test
    void aReaderOfAnAgentWithoutAHeadFileListsInsteadOfRebuildingIt() throws Exception {
        var config = FileStorageConfig.custom().directory(root).journal(false).build();
        try (var writer = FileStorage.builder(config).build()) {
            for (int version = 0; version < 3; version++) {
                writer.saveCheckpoint("agent", Checkpoints.simple("agent", version));
            }
            writer.deleteCheckpointsBefore("agent", 1);
        }
        // as a save that crashed between removing the head file and linking its checkpoint leaves it
        try (var files = Files.walk(root)) {
            for (Path head : files.filter(path -> path.getFileName().toString().equals(".head"))
                    .toList()) {
                Files.delete(head);
            }
        }
        byte[] before = StorageDumps.directory(root);
        try (var reader = FileStorage.builder(config).readOnly().build()) {
            assertThat(reader.getLatestCheckpoint("agent")).contains(Checkpoints.simple("agent", 2));
            assertThat(reader.getCheckpoints("agent")).hasSize(2);
        }
        assertThat(StorageDumps.directory(root)).isEqualTo(before);
    }
}
