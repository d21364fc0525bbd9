package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage inside a journal (not at its end) is reported with the journal's path and where in it, never truncated away,
 * and does not hide the checkpoints around it.
 */
class JournalCorruptionTest {
    static final String AGENT = "agent";

    @TempDir
    Path root;

    Path journal;
    List<JournalFiles.Rec> records;

    @BeforeEach
    void saveFive() {
        try (var provider = FileStorage.builder(root).build()) {
            for (int version = 0; version < 5; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version));
            }
        }
        journal = JournalFiles.journal(root, AGENT);
        records = JournalFiles.checkpoints(journal);
        assertThat(records).extracting(JournalFiles.Rec::version).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void aFlippedByteInAMiddleDocumentIsReportedForThatCheckpointOnly() {
        JournalFiles.Rec damaged = records.get(2);
        JournalFiles.flipByte(journal, damaged.documentOffset() + damaged.documentLength() / 2);
        try (var provider = FileStorage.builder(root).build()) {
            assertThatThrownBy(() -> provider.getCheckpoint(AGENT, "cp-2"))
                    .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                        assertThat(e.agentId()).isEqualTo(AGENT);
                        assertThat(e.checkpointId()).isEqualTo("cp-2");
                        assertThat(e.location()).contains(journal.toString()).contains("at byte " + damaged.offset());
                    })
                    .hasMessageContaining(journal.toString());
            for (String id : List.of("cp-0", "cp-1", "cp-3", "cp-4")) {
                assertThat(provider.getCheckpoint(AGENT, id))
                        .map(AgentCheckpoint::checkpointId)
                        .contains(id);
            }
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 4));
            assertThat(provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().limit(2).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(3L, 4L);
            assertThat(provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().maxVersion(1L).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
            assertThatThrownBy(() -> provider.getCheckpoints(AGENT))
                    .as("a list that reaches the damaged record reports it")
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.checkpointId()).isEqualTo("cp-2"));
        }
        try (var skipping = FileStorage.builder(root)
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThat(skipping.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 3L, 4L);
            assertThat(skipping.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder().maxVersion(2L).limit(1).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(1L);
            assertThat(skipping.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 4));
        }
    }

    @Test
    void aFlippedByteInAMiddleRecordHeaderIsADamagedSpanThatSavesKeep() throws Exception {
        JournalFiles.Rec damaged = records.get(2);
        JournalFiles.Rec next = records.get(3);
        JournalFiles.flipByte(journal, damaged.offset() + 7); // inside the version
        byte[] before = Files.readAllBytes(journal);
        String span = "bytes " + damaged.offset() + " to " + next.offset();
        try (var provider = FileStorage.builder(root).build()) {
            assertThatThrownBy(() -> provider.getLatestCheckpoint(AGENT))
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.location()).isEqualTo(journal.toString()))
                    .hasMessageContaining(span);
            assertThatThrownBy(() -> provider.getCheckpoints(AGENT))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining(span);
            assertThatThrownBy(() -> provider.getCheckpoint(AGENT, "cp-2"))
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.checkpointId()).isEqualTo("cp-2"))
                    .hasMessageContaining(span);
        }
        try (var skipping = FileStorage.builder(root)
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThat(skipping.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 3L, 4L);
            assertThat(skipping.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 4));
            assertThat(skipping.getCheckpoint(AGENT, "cp-3")).contains(checkpoint(AGENT, 3));
            assertThat(skipping.getCheckpoint(AGENT, "cp-2")).isEmpty();

            skipping.saveCheckpoint(AGENT, checkpoint(AGENT, 5));
            assertThat(skipping.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 3L, 4L, 5L);
            assertThat(skipping.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 5));
        }
        byte[] after = Files.readAllBytes(journal);
        assertThat(after.length)
                .as("appended after the damage, nothing truncated")
                .isGreaterThan(before.length);
        assertThat(java.util.Arrays.copyOf(after, before.length)).isEqualTo(before);
    }

    @Test
    void aSaveWithoutSkippingStillAppendsAfterADamagedSpan() throws Exception {
        JournalFiles.flipByte(journal, records.get(2).offset() + 7);
        long before = Files.size(journal);
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 5));
            assertThat(provider.getCheckpoint(AGENT, "cp-5")).contains(checkpoint(AGENT, 5));
        }
        assertThat(Files.size(journal)).isGreaterThan(before);
    }

    @Test
    void aDamagedFileHeaderMakesReadsAndSavesThrowAndLeavesTheFileAlone() throws Exception {
        JournalFiles.flipByte(journal, 12); // inside the generation
        byte[] before = Files.readAllBytes(journal);
        try (var provider = FileStorage.builder(root).build();
                var files = FilePerCheckpoint.provider(root)) {
            for (var p : List.of(provider, files)) {
                assertThatThrownBy(() -> p.getLatestCheckpoint(AGENT))
                        .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                            assertThat(e.location()).isEqualTo(journal.toString());
                            assertThat(e.agentId()).isEqualTo(AGENT);
                        })
                        .hasMessageContaining("file header");
                assertThatThrownBy(() -> p.getCheckpoints(AGENT)).isInstanceOf(CorruptCheckpointException.class);
                assertThatThrownBy(() -> p.getCheckpoint(AGENT, "cp-1")).isInstanceOf(CorruptCheckpointException.class);
                assertThatThrownBy(() -> p.saveCheckpoint(AGENT, checkpoint(AGENT, 5)))
                        .isInstanceOf(CorruptCheckpointException.class);
                assertThatThrownBy(() -> p.deleteCheckpointsBefore(AGENT, 3))
                        .isInstanceOf(CorruptCheckpointException.class);
            }
        }
        // skipping corrupt data applies to reads; a save never skips
        try (var skipping = FileStorage.builder(root)
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThat(skipping.getCheckpoint(AGENT, "cp-1")).isEmpty();
            assertThatThrownBy(() -> skipping.saveCheckpoint(AGENT, checkpoint(AGENT, 5)))
                    .isInstanceOf(CorruptCheckpointException.class);
        }
        assertThat(Files.readAllBytes(journal)).isEqualTo(before);
        assertThat(LayoutInspection.names(journal.getParent())).noneMatch(name -> name.endsWith(".checkpoint"));
    }

    @Test
    void aRecordLargerThanTheMaximumCheckpointSizeIsCorrupt() {
        AgentCheckpoint big = bigCheckpoint(5);
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, big);
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 6));
        }
        JournalFiles.Rec bigRecord = JournalFiles.checkpoints(journal).get(5);
        assertThat(bigRecord.checkpointId()).isEqualTo("big");
        assertThat(bigRecord.documentLength()).isGreaterThan(8 * 1024);

        var small = StorageSettings.custom().maxCheckpointSize(8 * 1024).build();
        try (var provider = FileStorage.builder(
                        FileStorageConfig.custom().directory(root).build())
                .settings(small)
                .build()) {
            assertThatThrownBy(() -> provider.getCheckpoint(AGENT, "big"))
                    .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                        assertThat(e.checkpointId()).isEqualTo("big");
                        assertThat(e.location()).contains(journal.toString()).contains("at byte " + bigRecord.offset());
                    })
                    .hasMessageContaining(String.valueOf(bigRecord.documentLength()))
                    .hasMessageContaining("8192");
            assertThatThrownBy(() -> provider.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder().maxVersion(5L).limit(1).build()))
                    .isInstanceOf(CorruptCheckpointException.class);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 6));
            assertThat(provider.getCheckpoint(AGENT, "cp-4")).contains(checkpoint(AGENT, 4));
        }
    }

    /**
     * A damaged record header followed only by a complete record larger than the saving provider's maximum checkpoint
     * size: that record is still complete, so the span is damage to report and keep, not a torn end to cut away; a
     * provider with a larger maximum still reads the record.
     */
    @Test
    void aSaveKeepsACompleteRecordAfterADamagedSpanEvenWhenItIsLargerThanTheMaximumSize() throws Exception {
        AgentCheckpoint big = bigCheckpoint(5);
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, big);
        }
        JournalFiles.Rec bigRecord = JournalFiles.checkpoints(journal).get(5);
        assertThat(bigRecord.documentLength()).isGreaterThan(8 * 1024);
        JournalFiles.flipByte(journal, records.get(4).offset() + 7); // the header of version 4, just before it
        byte[] before = Files.readAllBytes(journal);

        var small = StorageSettings.custom().maxCheckpointSize(8 * 1024).build();
        try (var provider = FileStorage.builder(root)
                .settings(StorageSettings.from(small).skipCorrupt(true).build())
                .build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 6));
        }
        byte[] after = Files.readAllBytes(journal);
        assertThat(java.util.Arrays.mismatch(before, after))
                .as(
                        "the first byte the save changed (of %s before it; the big record is at %s to %s)",
                        before.length, bigRecord.offset(), bigRecord.end())
                .isEqualTo(before.length);
        try (var provider = FileStorage.builder(root)
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThat(provider.getCheckpoint(AGENT, "big")).contains(big);
            assertThat(provider.getCheckpoint(AGENT, "cp-6")).contains(checkpoint(AGENT, 6));
        }
    }

    /**
     * A damaged record header among records of about 20 KB, then a deletion below a version under the damaged record's,
     * which would compact a sound journal: a damaged one is left as it is (copying the live records would drop the
     * damaged span, which may hold a checkpoint the deletion did not cover), so the damage is still reported
     * afterwards.
     */
    @Test
    void aDamagedJournalIsNotCompactedSoItsDamageIsNeverDroppedSilently() throws Exception {
        String padding = noise(20_000);
        String agent = "big-records";
        try (var provider = FileStorage.builder(root).build()) {
            for (int version = 0; version < 10; version++) {
                provider.saveCheckpoint(agent, checkpoint(agent, version, "cp-" + version, padding));
            }
        }
        Path bigJournal = JournalFiles.journal(root, agent);
        JournalFiles.flipByte(
                bigJournal, JournalFiles.checkpoints(bigJournal).get(8).offset() + 7);
        try (var provider = FileStorage.builder(root).build()) {
            assertThatThrownBy(() -> provider.getCheckpoints(agent)).isInstanceOf(CorruptCheckpointException.class);
            long before = JournalFiles.size(bigJournal);
            assertThat(before).isGreaterThan(150_000);
            assertThat(provider.deleteCheckpointsBefore(agent, 7)).isEqualTo(7);
            assertThat(JournalFiles.size(bigJournal))
                    .as("not compacted while damaged")
                    .isGreaterThan(before);
            assertThatThrownBy(() -> provider.getCheckpoints(agent))
                    .as("the damaged record of version 8 is still reported after the deletion")
                    .isInstanceOf(CorruptCheckpointException.class);
        }
    }

    private static AgentCheckpoint bigCheckpoint(long version) {
        return AgentCheckpoint.builder()
                .checkpointId("big")
                .agentId(AGENT)
                .version(version)
                .createdAt(TestCheckpoints.T0)
                .nodeId("node-" + version)
                .state("noise", JsonNodeFactory.instance.textNode(noise(20_000)))
                .build();
    }

    /** Text that compression barely shrinks. */
    private static String noise(int length) {
        var random = new Random(7);
        var noise = new StringBuilder();
        for (int i = 0; i < length; i++) {
            noise.append((char) ('!' + random.nextInt(90)));
        }
        return noise.toString();
    }
}
