package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process appending to a journal is killed at a random moment, three times over on the same root: every save it
 * reported as returned survives, the journal reads as a gapless run of versions, and the next save works and leaves a
 * journal of complete records only.
 */
class KilledJournalWriterTest {
    static final String AGENT = "killed-journal";

    @TempDir
    Path root;

    @TempDir
    Path signals;

    @Test
    void everySaveThatReturnedSurvivesTheWriterBeingKilled() throws Exception {
        var random = new Random();
        Path journal = JournalFiles.journal(root, AGENT);
        var printed = new ArrayList<Long>();
        long next = 0;
        for (int round = 0; round < 3; round++) {
            List<Long> saved = killedWhileSaving(round, next, 20 + random.nextInt(300));
            assertThat(saved)
                    .as("round %s", round)
                    .isNotEmpty()
                    .containsExactlyElementsOf(
                            LongStream.range(next, next + saved.size()).boxed().toList());
            printed.addAll(saved);
            long lastPrinted = saved.get(saved.size() - 1);
            String tail;
            try {
                JournalFiles.records(journal);
                tail = "ended with a complete record";
            } catch (AssertionError torn) {
                tail = "left a torn record (" + torn.getMessage() + ")";
            }

            try (var provider = FileStorage.builder(root).build()) {
                for (long version : printed) {
                    assertThat(provider.getCheckpoint(AGENT, "cp-" + version))
                            .as("round %s, version %s", round, version)
                            .contains(expected(version));
                }
                long latest = provider.getLatestCheckpoint(AGENT).orElseThrow().version();
                assertThat(latest)
                        .as("at most the save in progress when killed completed unreported")
                        .isBetween(lastPrinted, lastPrinted + 1);
                List<AgentCheckpoint> listed = provider.getCheckpoints(AGENT);
                assertThat(listed)
                        .extracting(AgentCheckpoint::version)
                        .containsExactlyElementsOf(
                                LongStream.rangeClosed(0, latest).boxed().toList());
                for (AgentCheckpoint checkpoint : listed) {
                    if (checkpoint.metadata().get("writer").equals(JournalLoopWriter.WRITER)) {
                        assertThat(checkpoint).isEqualTo(expected(checkpoint.version()));
                    }
                }
                assertThat(provider.listAgents()).containsExactly(AGENT);

                var own = TestCheckpoints.checkpoint(
                        AGENT, latest + 1, "cp-" + (latest + 1), "test after round " + round);
                provider.saveCheckpoint(AGENT, own);
                assertThat(provider.getLatestCheckpoint(AGENT)).contains(own);
                assertThat(provider.getCheckpoints(AGENT)).hasSize((int) latest + 2);
                next = latest + 2;
            }
            var records = JournalFiles.checkpoints(journal); // strict: no torn bytes left after the save
            assertThat(records).hasSize((int) next).allMatch(JournalFiles.Rec::intact);
            assertThat(LayoutInspection.names(journal.getParent()))
                    .noneMatch(name -> name.endsWith(FileNames.CHECKPOINT_SUFFIX));
            System.out.printf(
                    "round %s: the child saved %s versions before it was killed, and %s%n", round, saved.size(), tail);
        }
    }

    /**
     * The killed process deletes the older checkpoints after each save, so it is often killed while appending a cut or
     * compacting: the last saves it reported survive, the journal holds a gapless run of versions ending with them, and
     * opening the store removes a compaction's leftover file.
     */
    @Test
    void savesSurviveTheWriterBeingKilledWhileDeletingAndCompacting() throws Exception {
        var random = new Random();
        Path journal = JournalFiles.journal(root, AGENT);
        long next = 0;
        for (int round = 0; round < 3; round++) {
            List<Long> saved = killedWhileSaving(round, next, 100 + random.nextInt(400), "3");
            assertThat(saved).as("round %s", round).isNotEmpty();
            long lastPrinted = saved.get(saved.size() - 1);
            try (var provider = FileStorage.builder(root).build()) {
                assertThat(LayoutInspection.names(journal.getParent()))
                        .as("round %s", round)
                        .noneMatch(name -> name.startsWith(FileNames.TEMP_PREFIX));
                long latest = provider.getLatestCheckpoint(AGENT).orElseThrow().version();
                assertThat(latest).isBetween(lastPrinted, lastPrinted + 1);
                List<AgentCheckpoint> listed = provider.getCheckpoints(AGENT);
                long lowest = listed.get(0).version();
                assertThat(listed)
                        .extracting(AgentCheckpoint::version)
                        .containsExactlyElementsOf(
                                LongStream.rangeClosed(lowest, latest).boxed().toList());
                assertThat(lowest)
                        .as("the three newest reported saves are kept")
                        .isLessThanOrEqualTo(Math.max(0, lastPrinted - 2));
                for (long version = Math.max(next, lastPrinted - 2); version <= lastPrinted; version++) {
                    assertThat(provider.getCheckpoint(AGENT, "cp-" + version))
                            .as("round %s, version %s", round, version)
                            .contains(TestCheckpoints.checkpoint(
                                    AGENT, version, "cp-" + version, JournalLoopWriter.PADDED_WRITER));
                }
                provider.saveCheckpoint(AGENT, TestCheckpoints.checkpoint(AGENT, latest + 1));
                assertThat(provider.getLatestCheckpoint(AGENT)).contains(TestCheckpoints.checkpoint(AGENT, latest + 1));
                next = latest + 2;
            }
            assertThat(JournalFiles.records(journal)).allMatch(JournalFiles.Rec::intact);
            System.out.printf(
                    "round %s: the child saved %s versions, the journal has %s bytes%n",
                    round, saved.size(), JournalFiles.size(journal));
        }
    }

    /**
     * The killed process saves a growing history, so each save appends its log entry and its record in one write: a
     * kill can tear either, or leave the entry without its record. Every reported save reads back exactly, also in a
     * new provider with nothing cached, the versions are gapless, and the next save leaves only complete records.
     */
    @Test
    void growingHistoriesSurviveTheWriterBeingKilledBetweenTheirLogEntriesAndRecords() throws Exception {
        var random = new Random();
        Path journal = JournalFiles.journal(root, AGENT);
        long next = 0;
        for (int round = 0; round < 3; round++) {
            List<Long> saved = killedWhileSaving(round, next, 20 + random.nextInt(300), "growing");
            assertThat(saved).as("round %s", round).isNotEmpty();
            long lastPrinted = saved.get(saved.size() - 1);
            try (var provider = FileStorage.builder(root).build()) {
                for (long version : saved) {
                    assertThat(provider.getCheckpoint(AGENT, "cp-" + version))
                            .as("round %s, version %s", round, version)
                            .contains(TestCheckpoints.growing(AGENT, version));
                }
                long latest = provider.getLatestCheckpoint(AGENT).orElseThrow().version();
                assertThat(latest).isBetween(lastPrinted, lastPrinted + 1);
                assertThat(provider.getLatestCheckpoint(AGENT)).contains(TestCheckpoints.growing(AGENT, latest));
                assertThat(provider.getCheckpoints(AGENT))
                        .extracting(AgentCheckpoint::version)
                        .containsExactlyElementsOf(
                                LongStream.rangeClosed(0, latest).boxed().toList());
                provider.saveCheckpoint(AGENT, TestCheckpoints.growing(AGENT, latest + 1));
                assertThat(provider.getLatestCheckpoint(AGENT)).contains(TestCheckpoints.growing(AGENT, latest + 1));
                next = latest + 2;
            }
            List<JournalFiles.Rec> records = JournalFiles.records(journal); // strict: nothing torn left
            assertThat(records).allMatch(JournalFiles.Rec::intact);
            assertThat(records).filteredOn(rec -> rec.kind() == 1).hasSize((int) next);
            System.out.printf(
                    "round %s: the child saved %s growing checkpoints, the journal holds %s records%n",
                    round, saved.size(), records.size());
        }
    }

    /**
     * Starts a {@link JournalLoopWriter} from version {@code first} with {@code options}, kills it {@code millis} after
     * its first reported save, and returns the versions it reported.
     */
    private List<Long> killedWhileSaving(int round, long first, long millis, String... options) throws Exception {
        Path progress = signals.resolve("progress-" + round);
        var arguments = new ArrayList<>(List.of(root.toString(), AGENT, String.valueOf(first), progress.toString()));
        arguments.addAll(List.of(options));
        try (var child = ChildJvm.start(JournalLoopWriter.class, arguments.toArray(String[]::new))) {
            awaitFirstSave(child, progress);
            TimeUnit.MILLISECONDS.sleep(millis);
            child.kill();
            return reported(progress);
        }
    }

    /** Waits until the child reported its first save. */
    private static void awaitFirstSave(ChildJvm child, Path progress) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!java.nio.file.Files.exists(progress) || java.nio.file.Files.size(progress) == 0) {
            assertThat(child.isAlive()).as("the child runs: %s", child.output()).isTrue();
            assertThat(System.nanoTime()).as("the child saved within a minute").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** The versions the child reported saved, from its progress file. */
    private static List<Long> reported(Path progress) throws java.io.IOException {
        return java.nio.file.Files.readAllLines(progress).stream()
                .filter(line -> line.startsWith("saved "))
                .map(line -> Long.parseLong(line.substring(6)))
                .toList();
    }

    private static AgentCheckpoint expected(long version) {
        return TestCheckpoints.checkpoint(AGENT, version, "cp-" + version, JournalLoopWriter.WRITER);
    }
}
