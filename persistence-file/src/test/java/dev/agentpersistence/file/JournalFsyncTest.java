package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A save to a journal forces the journal alone; only creating one forces directories too. */
class JournalFsyncTest {
    @TempDir
    Path root;

    @Test
    void theFirstSaveForcesTheJournalAndTheNewDirectoriesThenEachSaveForcesOnlyTheJournal() {
        var fsync = new FsyncTest.RecordingFsync();
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build(), fsync)
                .build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            assertThat(fsync.events)
                    .as("the agent directory's entry in the root, the journal, its entry in the agent directory")
                    .containsExactly("dir " + root.getFileName(), "file " + FileNames.JOURNAL_FILE, "dir a");

            for (int version = 1; version <= 3; version++) {
                fsync.events.clear();
                provider.saveCheckpoint("a", checkpoint("a", version));
                assertThat(fsync.events).as("save %s", version).containsExactly("file " + FileNames.JOURNAL_FILE);
            }

            fsync.events.clear();
            assertThat(provider.deleteCheckpointsBefore("a", 2)).isEqualTo(2);
            assertThat(fsync.events)
                    .as("a cut is appended and forced")
                    .containsExactly("file " + FileNames.JOURNAL_FILE);
            assertThat(JournalFiles.records(JournalFiles.journal(root, "a")))
                    .extracting(JournalFiles.Rec::kind, JournalFiles.Rec::version)
                    .last()
                    .isEqualTo(org.assertj.core.groups.Tuple.tuple(2, 2L));
            assertThat(provider.getCheckpoints("a"))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(2L, 3L);

            fsync.events.clear();
            provider.deleteCheckpoints("a");
            assertThat(fsync.events)
                    .as("removing the journal forces the agent directory")
                    .containsExactly("dir a");
        }
    }

    @Test
    void theFirstSaveOfAnotherAgentSyncsItsNewDirectoryAgain() {
        var fsync = new FsyncTest.RecordingFsync();
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build(), fsync)
                .build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            fsync.events.clear();
            provider.saveCheckpoint("b", checkpoint("b", 0));
            assertThat(fsync.events)
                    .containsExactly("dir " + root.getFileName(), "file " + FileNames.JOURNAL_FILE, "dir b");
        }
    }

    @Test
    void aSaveRefusedForATakenVersionForcesNothing() {
        var fsync = new FsyncTest.RecordingFsync();
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build(), fsync)
                .build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            fsync.events.clear();
            try {
                provider.saveCheckpoint("a", checkpoint("a", 0, "other", "other"));
            } catch (dev.agentpersistence.CheckpointConflictException expected) {
                // the version is taken
            }
            provider.saveCheckpoint("a", checkpoint("a", 0)); // identical: nothing to write
            assertThat(fsync.events).isEmpty();
        }
    }

    @Test
    void aCompactionForcesTheCutTheNewFileAndThenTheAgentDirectory() {
        var fsync = new FsyncTest.RecordingFsync();
        String padding = "p".repeat(2000);
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build(), fsync)
                .build()) {
            int version = 0;
            while (true) {
                provider.saveCheckpoint("a", checkpoint("a", version, "cp-" + version, padding));
                fsync.events.clear();
                provider.deleteCheckpointsBefore("a", version);
                if (fsync.events.size() > 1) {
                    break;
                }
                assertThat(version)
                        .as("compacted before 64 KiB of records more than 64 times over")
                        .isLessThan(500);
                version++;
            }
            assertThat(fsync.events).hasSize(3);
            assertThat(fsync.events.get(0)).isEqualTo("file " + FileNames.JOURNAL_FILE);
            assertThat(fsync.events.get(1)).startsWith("file " + FileNames.TEMP_PREFIX);
            assertThat(fsync.events.get(2)).isEqualTo("dir a");
            assertThat(JournalFiles.records(JournalFiles.journal(root, "a")))
                    .extracting(JournalFiles.Rec::version)
                    .containsExactly((long) version);
            assertThat(provider.getCheckpoints("a"))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly((long) version);
        }
    }

    /**
     * A writer killed while creating an agent's journal left it empty, its directory entry perhaps not yet on disk: the
     * save that writes the journal's first record makes the entry durable as the first save of an agent does, or a
     * crash after it returned could lose the whole journal.
     */
    @Test
    void theFirstRecordInAJournalLeftEmptyByAKilledWriterAlsoForcesTheAgentDirectory() throws Exception {
        java.nio.file.Files.createDirectories(LayoutInspection.agentDirectory(root, "a"));
        java.nio.file.Files.createFile(JournalFiles.journal(root, "a"));
        var fsync = new FsyncTest.RecordingFsync();
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build(), fsync)
                .build()) {
            provider.saveCheckpoint("a", checkpoint("a", 0));
            assertThat(provider.getCheckpoints("a")).containsExactly(checkpoint("a", 0));
        }
        assertThat(fsync.events).containsSubsequence("file " + FileNames.JOURNAL_FILE, "dir a");
    }
}
