package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.storage.StorageShell;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The end of a journal left by a crash in the middle of an append — a record cut anywhere, or a file that grew without
 * its data being written — hides nothing that was complete before it, makes no reader throw, and is cut away by the
 * next save, which leaves the file ending exactly after its own record.
 */
class JournalTornTailTest {
    static final String AGENT = "agent";

    @TempDir
    Path root;

    Path journal;
    /** The size of the journal holding versions 0 and 1. */
    long twoRecords;
    /** The bytes of the journal holding versions 0, 1 and 2. */
    byte[] threeRecords;

    @BeforeEach
    void saveThree() throws IOException {
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            journal = JournalFiles.journal(root, AGENT);
            twoRecords = Files.size(journal);
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2));
        }
        threeRecords = Files.readAllBytes(journal);
        assertThat(JournalFiles.checkpoints(journal))
                .extracting(JournalFiles.Rec::version)
                .containsExactly(0L, 1L, 2L);
    }

    /** The last record cut inside its header (1, 10, 22), inside the body, and with its trailer (partly) missing. */
    @ParameterizedTest(name = "last record cut after {0} bytes (negative: that many bytes short of complete)")
    @ValueSource(ints = {1, 10, 22, 23, 30, -4, -1})
    void aRecordCutAtTheEndHidesOnlyItselfAndTheNextSaveReplacesIt(int kept) throws IOException {
        long lastRecord = threeRecords.length - twoRecords;
        long cutAt = kept > 0 ? twoRecords + kept : threeRecords.length + kept;
        assertThat(cutAt).isBetween(twoRecords + 1, twoRecords + lastRecord - 1);
        truncate(twoRecords);
        try (var reader = FileStorage.builder(root).build()) {
            assertThat(reader.getCheckpoints(AGENT)).hasSize(2);
            // the append of version 2 got this far when the writer crashed
            Files.write(
                    journal,
                    Arrays.copyOfRange(threeRecords, (int) twoRecords, (int) cutAt),
                    StandardOpenOption.APPEND);
            assertSeesVersionsZeroAndOne(reader);
            try (var fresh = FileStorage.builder(root).build();
                    var files = FilePerCheckpoint.provider(root)) {
                assertSeesVersionsZeroAndOne(fresh);
                assertSeesVersionsZeroAndOne(files);
                assertThat(Files.size(journal))
                        .as("readers leave the torn bytes alone")
                        .isEqualTo(cutAt);
                fresh.saveCheckpoint(AGENT, checkpoint(AGENT, 2));
            }
            assertThat(Files.readAllBytes(journal))
                    .as("the torn bytes are gone; the file ends after the new record")
                    .isEqualTo(threeRecords);
            assertThat(reader.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 2L);
            assertThat(reader.getCheckpoint(AGENT, "cp-2")).contains(checkpoint(AGENT, 2));
        }
    }

    @Test
    void aRecordCutAtTheEndCanBeReplacedByAnotherCheckpointOfTheSameVersion() throws IOException {
        truncate(twoRecords + 40);
        try (var provider = FileStorage.builder(root).build()) {
            var other = checkpoint(AGENT, 2, "another-id", "a longer writer name than before");
            provider.saveCheckpoint(AGENT, other);
            assertThat(provider.getCheckpoint(AGENT, "another-id")).contains(other);
            assertThat(provider.getCheckpoint(AGENT, "cp-2")).isEmpty();
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(other);
        }
        var records = JournalFiles.checkpoints(journal);
        assertThat(records).extracting(JournalFiles.Rec::checkpointId).containsExactly("cp-0", "cp-1", "another-id");
        assertThat(records).allMatch(JournalFiles.Rec::intact);
        assertThat(records.get(2).offset()).isEqualTo(twoRecords);
        assertThat(records.get(2).end()).isEqualTo(Files.size(journal));
    }

    /** The file grew (its size was written) but its data never was: zeros, shorter and longer than a header. */
    @ParameterizedTest(name = "{0} zero bytes at the end")
    @ValueSource(ints = {1, 22, 23, 100, 70_000})
    void zerosAtTheEndAreIgnoredByReadersAndRemovedByTheNextSave(int zeros) throws IOException {
        try (var reader = FileStorage.builder(root).build()) {
            assertThat(reader.getCheckpoints(AGENT)).hasSize(3);
            Files.write(journal, new byte[zeros], StandardOpenOption.APPEND);
            assertSeesVersionsZeroToTwo(reader);
            try (var fresh = FileStorage.builder(root).build()) {
                assertSeesVersionsZeroToTwo(fresh);
                fresh.saveCheckpoint(AGENT, checkpoint(AGENT, 3));
            }
            var records = JournalFiles.checkpoints(journal);
            assertThat(records).extracting(JournalFiles.Rec::version).containsExactly(0L, 1L, 2L, 3L);
            assertThat(records).allMatch(JournalFiles.Rec::intact);
            assertThat(records.get(3).offset()).isEqualTo(threeRecords.length);
            assertThat(records.get(3).end())
                    .as("the file ends exactly after the new record")
                    .isEqualTo(Files.size(journal));
            assertThat(reader.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 3));
            assertThat(reader.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 2L, 3L);
        }
    }

    /** A crash while the journal was being created left it shorter than its file header. */
    @ParameterizedTest(name = "journal of {0} bytes")
    @ValueSource(ints = {0, 1, 17, 31})
    void aJournalShorterThanItsHeaderHoldsNothingAndTheNextSaveWorks(int length) throws IOException {
        String agent = "fresh";
        Path directory = LayoutInspection.agentDirectory(root, agent);
        Files.createDirectories(directory);
        Path torn = JournalFiles.journal(root, agent);
        Files.write(torn, Arrays.copyOf(threeRecords, length)); // a prefix of a real file header
        try (var provider = FileStorage.builder(root).build()) {
            assertThat(provider.getLatestCheckpoint(agent)).isEmpty();
            assertThat(provider.getCheckpoints(agent)).isEmpty();
            assertThat(provider.getCheckpoint(agent, "cp-0")).isEmpty();
            assertThat(provider.getCheckpoints(
                            agent, CheckpointFilter.builder().nodeId("node-0").build()))
                    .isEmpty();
            assertThat(provider.listAgents()).containsExactly(AGENT);

            provider.saveCheckpoint(agent, checkpoint(agent, 0));
            assertThat(provider.getCheckpoint(agent, "cp-0")).contains(checkpoint(agent, 0));
            assertThat(provider.getLatestCheckpoint(agent)).contains(checkpoint(agent, 0));
            assertThat(provider.listAgents()).containsExactlyInAnyOrder(AGENT, agent);
        }
        var records = JournalFiles.checkpoints(torn);
        assertThat(records).extracting(JournalFiles.Rec::version).containsExactly(0L);
        assertThat(records.get(0).offset()).isEqualTo(JournalFiles.FILE_HEADER_SIZE);
        assertThat(records.get(0).end()).isEqualTo(Files.size(torn));
        assertThat(LayoutInspection.names(LayoutInspection.agentDirectory(root, agent)))
                .noneMatch(name -> name.endsWith(".checkpoint"));
    }

    /**
     * A crash during the first save of an agent, after the journal's file header was written and while its first record
     * was: the agent has no checkpoint, so it is not listed (as an agent whose first save as a file was interrupted is
     * not), and its next save works.
     */
    @ParameterizedTest(name = "first record cut after {0} bytes")
    @ValueSource(ints = {10, 40})
    void anAgentWhoseOnlyRecordIsTornHasNoCheckpointsAndIsNotListed(int kept) throws IOException {
        String agent = "fresh";
        Files.createDirectories(LayoutInspection.agentDirectory(root, agent));
        Path torn = JournalFiles.journal(root, agent);
        int firstRecordEnd = (int) JournalFiles.checkpoints(journal).get(0).end();
        Files.write(torn, Arrays.copyOf(threeRecords, JournalFiles.FILE_HEADER_SIZE + kept));
        assertThat(JournalFiles.FILE_HEADER_SIZE + kept).isLessThan(firstRecordEnd);
        try (var provider = FileStorage.builder(root).build()) {
            assertThat(provider.getLatestCheckpoint(agent)).isEmpty();
            assertThat(provider.getCheckpoints(agent)).isEmpty();
            assertThat(provider.listAgents())
                    .as("agents with at least one checkpoint")
                    .containsExactly(AGENT);

            provider.saveCheckpoint(agent, checkpoint(agent, 0));
            assertThat(provider.getCheckpoints(agent)).containsExactly(checkpoint(agent, 0));
            assertThat(provider.listAgents()).containsExactlyInAnyOrder(AGENT, agent);
        }
    }

    @Test
    void aDeletionCutsATornRecordAtTheEndBeforeAppendingItsCut() throws IOException {
        truncate(twoRecords);
        Files.write(
                journal,
                Arrays.copyOfRange(threeRecords, (int) twoRecords, (int) twoRecords + 50),
                StandardOpenOption.APPEND);
        try (var provider = FileStorage.builder(root).build()) {
            assertThat(provider.deleteCheckpointsBefore(AGENT, 1)).isEqualTo(1);
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(checkpoint(AGENT, 1));
            var records = JournalFiles.records(journal); // strict: the torn bytes are gone
            assertThat(records)
                    .extracting(JournalFiles.Rec::kind, JournalFiles.Rec::version)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(1, 0L),
                            org.assertj.core.groups.Tuple.tuple(1, 1L),
                            org.assertj.core.groups.Tuple.tuple(2, 1L));
            assertThat(records.get(2).offset()).isEqualTo(twoRecords);

            Files.write(journal, new byte[40], StandardOpenOption.APPEND);
            assertThat(provider.deleteCheckpoints(AGENT)).isEqualTo(1);
            assertThat(journal).doesNotExist();
            assertThat(provider.listAgents()).isEmpty();
        }
    }

    private void truncate(long size) throws IOException {
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }

    private static void assertSeesVersionsZeroAndOne(StorageShell provider) {
        assertThat(provider.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 1));
        assertThat(provider.getCheckpoints(AGENT)).containsExactly(checkpoint(AGENT, 0), checkpoint(AGENT, 1));
        assertThat(provider.getCheckpoint(AGENT, "cp-2")).isEmpty();
        assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(checkpoint(AGENT, 1));
        assertThat(provider.getCheckpoints(
                        AGENT, CheckpointFilter.builder().nodeId("node-0").build()))
                .containsExactly(checkpoint(AGENT, 0));
        assertThat(provider.listAgents()).containsExactly(AGENT);
    }

    private static void assertSeesVersionsZeroToTwo(StorageShell provider) {
        assertThat(provider.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 2));
        assertThat(provider.getCheckpoints(AGENT))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L, 2L);
        assertThat(provider.getCheckpoint(AGENT, "cp-2")).contains(checkpoint(AGENT, 2));
        assertThat(provider.getCheckpoint(AGENT, "cp-3")).isEmpty();
    }
}
