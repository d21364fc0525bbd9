package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.file.internal.Fsync;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent kept as a journal keeps its message log there: a save with new log entries is one append and one flush, and
 * the entries are read, listed, collected and compacted with the journal. Segments written as files before (or beside a
 * journal of format 1) still read.
 */
class JournalSegmentsTest {
    /** Kinds of journal records, as {@code JournalFormat} documents them. */
    private static final int CHECKPOINT = 1;

    private static final int SEGMENT = 3;
    private static final int DROP = 5;

    @TempDir
    Path root;

    @Test
    void aSaveWithNewLogEntriesForcesOnlyTheJournalAndWritesNoSegmentFile() {
        var fsync = new FsyncTest.RecordingFsync();
        try (var provider = provider(fsync)) {
            provider.saveCheckpoint("a", TestCheckpoints.growing("a", 0));
            for (int version = 1; version <= 5; version++) {
                fsync.events.clear();
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
                assertThat(fsync.events).as("save %s", version).containsExactly("file " + FileNames.JOURNAL_FILE);
            }
            assertThat(segments(provider).listSegments("a")).hasSizeGreaterThanOrEqualTo(6);
        }
        assertThat(LayoutInspection.agentDirectory(root, "a").resolve(FileNames.SEGMENTS_DIRECTORY))
                .doesNotExist();
        List<JournalFiles.Rec> records = JournalFiles.records(JournalFiles.journal(root, "a"));
        assertThat(records).allMatch(JournalFiles.Rec::intact);
        assertThat(records)
                .extracting(JournalFiles.Rec::kind)
                .as("each save: its log entry, then its checkpoint")
                .containsExactly(
                        SEGMENT,
                        CHECKPOINT,
                        SEGMENT,
                        CHECKPOINT,
                        SEGMENT,
                        CHECKPOINT,
                        SEGMENT,
                        CHECKPOINT,
                        SEGMENT,
                        CHECKPOINT,
                        SEGMENT,
                        CHECKPOINT);
        try (var reopened = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 0; version <= 5; version++) {
                assertThat(reopened.getCheckpoint("a", "cp-" + version))
                        .contains(TestCheckpoints.growing("a", version));
            }
        }
    }

    @Test
    void deletingEveryCheckpointKeepsTheLogUntilItIsCollected() {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 0; version <= 3; version++) {
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
            List<SegmentInfo> before = segments(provider).listSegments("a");
            assertThat(provider.deleteCheckpoints("a")).isEqualTo(4);

            assertThat(provider.listAgents()).doesNotContain("a");
            assertThat(provider.storedForm().orElseThrow().listSegmentAgents()).contains("a");
            assertThat(segments(provider).listSegments("a")).isEqualTo(before);
            assertThat(JournalFiles.records(JournalFiles.journal(root, "a")))
                    .extracting(JournalFiles.Rec::kind)
                    .as("the journal was compacted to its segments")
                    .containsOnly(SEGMENT);

            assertThat(provider.storedForm()
                            .orElseThrow()
                            .collectGarbage("a", Instant.now().plusSeconds(60)))
                    .isEqualTo(before.size());
            assertThat(segments(provider).listSegments("a")).isEmpty();
            assertThat(JournalFiles.journal(root, "a"))
                    .as("nothing in it counts any more")
                    .doesNotExist();
            assertThat(provider.storedForm().orElseThrow().listSegmentAgents()).doesNotContain("a");
        }
    }

    @Test
    void deletingEveryCheckpointBelowAVersionRewritesTheJournalWithItsLogAloneNeverACutOfEverything() {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 0; version <= 2; version++) {
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
            List<SegmentInfo> before = segments(provider).listSegments("a");
            assertThat(provider.deleteCheckpointsBefore("a", 10)).isEqualTo(3);

            assertThat(JournalFiles.records(JournalFiles.journal(root, "a")))
                    .extracting(JournalFiles.Rec::kind)
                    .containsOnly(SEGMENT);
            assertThat(provider.listAgents()).doesNotContain("a");
            assertThat(segments(provider).listSegments("a")).isEqualTo(before);

            // saved again: the agent is listed as soon as its journal holds a checkpoint, found behind the segments
            provider.saveCheckpoint("a", TestCheckpoints.growing("a", 3));
            assertThat(provider.listAgents()).contains("a");
            assertThat(provider.getCheckpoints("a")).containsExactly(TestCheckpoints.growing("a", 3));
        }
        try (var reopened = provider(new FsyncTest.RecordingFsync())) {
            assertThat(reopened.listAgents()).contains("a");
        }
    }

    @Test
    void collectingUnreferencedEntriesAppendsDropsAndKeepsWhatKeptCheckpointsNeed() {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 0; version <= 3; version++) {
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
            // a branch that version 5 does not continue: its entry is referenced by no checkpoint once 4 is deleted
            AgentCheckpoint v3 = TestCheckpoints.growing("a", 3);
            var branch = new ArrayList<>(v3.messageHistory());
            branch.add(Message.user("a question taken back").withId("b-1"));
            branch.add(Message.assistant("its answer").withId("b-2"));
            provider.saveCheckpoint(
                    "a",
                    v3.toBuilder()
                            .checkpointId("cp-4")
                            .version(4)
                            .messageHistory(branch)
                            .build());
            provider.saveCheckpoint("a", TestCheckpoints.growing("a", 5));
            provider.deleteCheckpointsBefore("a", 5);
            int collected = provider.storedForm()
                    .orElseThrow()
                    .collectGarbage("a", Instant.now().plusSeconds(60));

            assertThat(collected).isPositive();
            assertThat(JournalFiles.records(JournalFiles.journal(root, "a")))
                    .extracting(JournalFiles.Rec::kind)
                    .contains(DROP);
            assertThat(provider.getCheckpoints("a")).containsExactly(TestCheckpoints.growing("a", 5));
        }
        try (var reopened = provider(new FsyncTest.RecordingFsync())) {
            assertThat(reopened.getCheckpoints("a")).containsExactly(TestCheckpoints.growing("a", 5));
        }
    }

    @Test
    void aJournalOfFormatOneKeepsItsLogAsSegmentFilesAndReadsLikeAnyOther() throws IOException {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            provider.saveCheckpoint("a", TestCheckpoints.checkpoint("a", 0));
        }
        Path journal = JournalFiles.journal(root, "a");
        rewriteFormat(journal, 1);

        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 1; version <= 3; version++) {
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
        }
        assertThat(JournalFiles.records(journal))
                .extracting(JournalFiles.Rec::kind)
                .as("a reader of format 1 finds no record it does not know")
                .containsOnly(CHECKPOINT);
        assertThat(formatOf(journal)).isEqualTo(1);
        Path segmentDirectory = LayoutInspection.agentDirectory(root, "a").resolve(FileNames.SEGMENTS_DIRECTORY);
        try (var files = Files.list(segmentDirectory)) {
            assertThat(files.count()).isEqualTo(3);
        }

        try (var reopened = provider(new FsyncTest.RecordingFsync())) {
            assertThat(reopened.getCheckpoints("a"))
                    .containsExactly(
                            TestCheckpoints.checkpoint("a", 0),
                            TestCheckpoints.growing("a", 1),
                            TestCheckpoints.growing("a", 2),
                            TestCheckpoints.growing("a", 3));
            // once the agent starts over in a new journal, its entries go there, and the old files still read
            assertThat(reopened.deleteCheckpoints("a")).isEqualTo(4);
            for (int version = 1; version <= 4; version++) {
                reopened.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
            assertThat(formatOf(journal)).isEqualTo(2);
            assertThat(JournalFiles.records(journal))
                    .extracting(JournalFiles.Rec::kind)
                    .contains(SEGMENT);
        }
        try (var reopened = provider(new FsyncTest.RecordingFsync())) {
            assertThat(reopened.getCheckpoints("a"))
                    .containsExactly(
                            TestCheckpoints.growing("a", 1),
                            TestCheckpoints.growing("a", 2),
                            TestCheckpoints.growing("a", 3),
                            TestCheckpoints.growing("a", 4));
        }
    }

    @Test
    void aFlippedByteInALogEntryIsReportedWithTheJournalAndItsOffsetAndChangesNothing() throws IOException {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            for (int version = 0; version <= 2; version++) {
                provider.saveCheckpoint("a", TestCheckpoints.growing("a", version));
            }
        }
        Path journal = JournalFiles.journal(root, "a");
        JournalFiles.Rec last = JournalFiles.records(journal).stream()
                .filter(rec -> rec.kind() == SEGMENT)
                .reduce((first, second) -> second)
                .orElseThrow();
        JournalFiles.flipByte(journal, last.documentOffset() + last.documentLength() - 1);
        byte[] damaged = Files.readAllBytes(journal);

        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            assertThatThrownBy(() -> provider.getCheckpoint("a", "cp-2"))
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.location())
                                    .contains(journal.toString())
                                    .contains("at byte " + last.offset()))
                    .hasMessageContaining("history segment");
            assertThat(provider.getCheckpoint("a", "cp-1"))
                    .as("a checkpoint whose path ends before the damaged entry")
                    .contains(TestCheckpoints.growing("a", 1));
            assertThat(provider.listAgents()).containsExactly("a");
        }
        assertThat(Files.readAllBytes(journal)).as("reads change nothing").isEqualTo(damaged);
    }

    @Test
    void aLogEntryLargerThanTheMaximumCheckpointSizeIsATypedErrorFoundBeforeItIsRead() {
        var random = new java.util.Random(7);
        var messages = new ArrayList<Message>();
        for (int i = 0; i < 20; i++) {
            byte[] noise = new byte[1024];
            random.nextBytes(noise);
            messages.add(Message.user(java.util.HexFormat.of().formatHex(noise)).withId("m-" + i));
        }
        AgentCheckpoint big = TestCheckpoints.growing("a", 0).toBuilder()
                .messageHistory(messages)
                .build();
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            provider.saveCheckpoint("a", big);
        }
        Path journal = JournalFiles.journal(root, "a");
        JournalFiles.Rec entry = JournalFiles.records(journal).get(0);
        assertThat(entry.kind()).isEqualTo(SEGMENT);
        assertThat(entry.documentLength()).isGreaterThan(8 * 1024);

        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build())
                .settings(StorageSettings.custom().maxCheckpointSize(8 * 1024).build())
                .build()) {
            assertThatThrownBy(() -> provider.getCheckpoint("a", "cp-0"))
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.location())
                                    .contains(journal.toString())
                                    .contains("at byte " + entry.offset()))
                    .hasMessageContaining("8192");
        }
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            assertThat(provider.getCheckpoint("a", "cp-0")).contains(big);
        }
    }

    @Test
    void aSegmentPutAgainMovesItsWriteTimeWithoutCopyingItsBytes() {
        try (var provider = provider(new FsyncTest.RecordingFsync())) {
            provider.saveCheckpoint("a", TestCheckpoints.growing("a", 0));
            var segments = segments(provider);
            String id = segments.listSegments("a").get(0).segmentId();
            byte[] stored = segments.getSegments("a", List.of(id)).get(id);
            long size = JournalFiles.size(JournalFiles.journal(root, "a"));

            segments.putSegment("a", id, stored);

            long touch = JournalFiles.size(JournalFiles.journal(root, "a")) - size;
            assertThat(touch).as("a touch record: header, id, time, trailer").isLessThan(stored.length);
            assertThat(segments.getSegments("a", List.of(id)).get(id)).isEqualTo(stored);
            assertThat(segments.deleteSegments("a", List.of(id), T0)).isZero();
        }
    }

    private StorageShell provider(Fsync fsync) {
        return FileStorage.builder(FileStorageConfig.custom().directory(root).build(), fsync)
                .build();
    }

    private static dev.agentpersistence.backend.HistorySegmentStore segments(StorageShell provider) {
        return provider.storedForm().map(StoredForm::segments).orElseThrow();
    }

    private static int formatOf(Path journal) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(journal), 4, 4).getInt();
    }

    /** Sets the format version in the journal's file header, with its checksum. */
    private static void rewriteFormat(Path journal, int format) throws IOException {
        try (var channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(JournalFiles.FILE_HEADER_SIZE);
            channel.read(header, 0);
            header.putInt(4, format);
            var crc = new CRC32C();
            crc.update(header.array(), 0, JournalFiles.FILE_HEADER_SIZE - 4);
            header.putInt(JournalFiles.FILE_HEADER_SIZE - 4, (int) crc.getValue());
            header.rewind();
            channel.write(header, 0);
        }
    }
}
