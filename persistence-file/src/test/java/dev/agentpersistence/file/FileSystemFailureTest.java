package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.StorageUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File system errors surface as StorageUnavailableException naming the path; the provider recovers. A root that cannot
 * be used at all is {@link UnusableDirectoryTest}'s subject.
 */
class FileSystemFailureTest {
    @TempDir
    Path sandbox;

    @Test
    void aBlockedAgentDirectoryFailsTheSaveAndTheSameProviderWorksOnceItIsFreed() throws Exception {
        try (var provider = FileStorage.builder(sandbox).build()) {
            Path blocker = Files.writeString(LayoutInspection.agentDirectory(sandbox, "agent"), "in the way");
            assertThatThrownBy(() -> provider.saveCheckpoint("agent", checkpoint("agent", 0)))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining(blocker.toString())
                    .hasCauseInstanceOf(IOException.class);

            Files.delete(blocker);
            provider.saveCheckpoint("agent", checkpoint("agent", 0));
            assertThat(provider.getCheckpoint("agent", "cp-0")).contains(checkpoint("agent", 0));
        }
    }
}
