package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.file.internal.Fsync;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saves really force data and directory entries to disk, in the order crash safety needs. */
class FsyncTest {
    @TempDir
    Path root;

    /** Records every fsync and then performs it. */
    static final class RecordingFsync implements Fsync {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void file(FileChannel channel, Path path) throws IOException {
            events.add("file " + path.getFileName());
            Fsync.system().file(channel, path);
        }

        @Override
        public void directory(Path directory) throws IOException {
            events.add("dir " + directory.getFileName());
            Fsync.system().directory(directory);
        }
    }

    @Test
    void aSaveForcesTheFileThenTheIdIndexThenTheAgentDirectory() {
        var fsync = new RecordingFsync();
        try (var provider = FileStorage.builder(FilePerCheckpoint.config(root).build(), fsync)
                .build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            assertThat(fsync.events)
                    .as("first save also makes the new directories durable")
                    .containsExactly(
                            "dir " + root.getFileName(),
                            "dir a",
                            "file " + tempName(fsync.events),
                            "dir .ids",
                            "dir a");

            fsync.events.clear();
            provider.saveCheckpoint("a", checkpoint("a", 1));
            assertThat(fsync.events).hasSize(3);
            assertThat(fsync.events.get(0)).startsWith("file " + FileNames.TEMP_PREFIX);
            assertThat(fsync.events.subList(1, 3)).containsExactly("dir .ids", "dir a");

            fsync.events.clear();
            provider.deleteCheckpointsBefore("a", 1);
            assertThat(fsync.events).containsExactly("dir a", "dir .ids");
        }
    }

    @Test
    void fsyncIsOnByDefaultAndSavesStillWorkWithItTurnedOff() {
        assertThat(FileStorageConfig.ofDefaults().fsync()).isTrue();
        var unsynced = FilePerCheckpoint.config(root).fsync(false).build();
        try (var provider = FileStorage.builder(unsynced).build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            assertThat(provider.getCheckpoint("a", "cp-0")).contains(checkpoint("a", 0));
        }
    }

    private static String tempName(List<String> events) {
        return events.stream()
                .filter(e -> e.startsWith("file "))
                .findFirst()
                .orElseThrow()
                .substring(5);
    }
}
