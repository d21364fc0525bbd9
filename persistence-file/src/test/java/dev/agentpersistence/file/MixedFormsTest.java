package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Providers writing journals and providers writing one file per checkpoint over one root: an agent keeps the form of
 * its first save, whichever provider saves next, and every provider reads both.
 */
class MixedFormsTest {
    @TempDir
    Path root;

    @Test
    void anAgentWrittenAsFilesStaysFilesWhenAJournalProviderSavesMore() {
        try (var files = FilePerCheckpoint.provider(root)) {
            files.saveCheckpoint("a", checkpoint("a", 0));
            files.saveCheckpoint("a", checkpoint("a", 1));
        }
        try (var journals = FileStorage.builder(root).build()) {
            journals.saveCheckpoint("a", checkpoint("a", 2));
            journals.saveCheckpoint("a", checkpoint("a", 3));
            assertThat(journals.getCheckpoints("a"))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 2L, 3L);
        }
        Path directory = LayoutInspection.agentDirectory(root, "a");
        assertThat(directory.resolve(FileNames.JOURNAL_FILE)).doesNotExist();
        assertThat(checkpointFiles(directory))
                .containsExactly(
                        FileNames.versionFileName(0),
                        FileNames.versionFileName(1),
                        FileNames.versionFileName(2),
                        FileNames.versionFileName(3));
        assertThat(LayoutInspection.idEntries(root, "a")).containsExactly("cp-0", "cp-1", "cp-2", "cp-3");
    }

    @Test
    void anAgentKeptAsAJournalGetsTheSavesOfAFilesProvider() {
        try (var journals = FileStorage.builder(root).build()) {
            journals.saveCheckpoint("a", checkpoint("a", 0));
        }
        try (var files = FilePerCheckpoint.provider(root)) {
            files.saveCheckpoint("a", checkpoint("a", 1));
            files.saveCheckpoint("a", checkpoint("a", 2));
            files.deleteCheckpointsBefore("a", 1);
            files.saveCheckpoint("a", checkpoint("a", 3));
            assertThat(files.getCheckpoints("a"))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(1L, 2L, 3L);
        }
        Path directory = LayoutInspection.agentDirectory(root, "a");
        assertThat(checkpointFiles(directory)).isEmpty();
        assertThat(LayoutInspection.idEntries(root, "a")).isEmpty();
        assertThat(JournalFiles.checkpoints(directory.resolve(FileNames.JOURNAL_FILE)))
                .extracting(JournalFiles.Rec::version)
                .containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void providersOfBothSettingsReadBothForms() {
        try (var files = FilePerCheckpoint.provider(root);
                var journals = FileStorage.builder(root).build()) {
            for (int version = 0; version < 4; version++) {
                files.saveCheckpoint("in-files", checkpoint("in-files", version));
                journals.saveCheckpoint("in-journal", checkpoint("in-journal", version));
            }
        }
        assertThat(LayoutInspection.agentDirectory(root, "in-journal").resolve(FileNames.JOURNAL_FILE))
                .exists();
        assertThat(LayoutInspection.agentDirectory(root, "in-files").resolve(FileNames.JOURNAL_FILE))
                .doesNotExist();
        try (var files = FilePerCheckpoint.provider(root);
                var journals = FileStorage.builder(root).build()) {
            for (var provider : List.of(files, journals)) {
                assertThat(provider.listAgents()).containsExactlyInAnyOrder("in-files", "in-journal");
                for (String agent : List.of("in-files", "in-journal")) {
                    assertThat(provider.getCheckpoint(agent, "cp-2")).contains(checkpoint(agent, 2));
                    assertThat(provider.getCheckpoint(agent, "cp-9")).isEmpty();
                    assertThat(provider.getLatestCheckpoint(agent)).contains(checkpoint(agent, 3));
                    assertThat(provider.getCheckpoints(agent))
                            .containsExactly(
                                    checkpoint(agent, 0),
                                    checkpoint(agent, 1),
                                    checkpoint(agent, 2),
                                    checkpoint(agent, 3));
                    assertThat(provider.getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder()
                                            .maxVersion(2L)
                                            .limit(2)
                                            .build()))
                            .extracting(AgentCheckpoint::version)
                            .containsExactly(1L, 2L);
                    assertThat(provider.getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder().nodeId("node-1").build()))
                            .containsExactly(checkpoint(agent, 1));
                    assertThat(provider.getLatestCheckpoint(
                                    agent,
                                    CheckpointFilter.builder().maxVersion(1L).build()))
                            .contains(checkpoint(agent, 1));
                    assertThat(provider.getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder()
                                            .createdAfter(TestCheckpoints.T0.plusMillis(1500))
                                            .metadata("writer", "test")
                                            .build()))
                            .extracting(AgentCheckpoint::version)
                            .containsExactly(2L, 3L);
                }
            }
        }
    }

    @Test
    void eightProvidersOfBothSettingsMakingTheFirstSavesOfAnAgentAgreeOnOneForm() throws Exception {
        for (int round = 0; round < 10; round++) {
            String agent = "fresh-" + round;
            int threads = 8;
            int perThread = 6;
            var providers = new ArrayList<StorageShell>();
            for (int thread = 0; thread < threads; thread++) {
                providers.add(thread % 2 == 0 ? FileStorage.builder(root).build() : FilePerCheckpoint.provider(root));
            }
            try {
                AllAtOnce.run(threads, first -> {
                    var provider = providers.get(first);
                    for (int i = 0; i < perThread; i++) {
                        long version = first + (long) i * threads;
                        provider.saveCheckpoint(
                                agent, checkpoint(agent, version, "t" + first + "-" + version, "thread " + first));
                    }
                });
            } finally {
                providers.forEach(StorageShell::close);
            }

            int count = threads * perThread;
            try (var files = FilePerCheckpoint.provider(root);
                    var journals = FileStorage.builder(root).build()) {
                for (var provider : List.of(files, journals)) {
                    List<AgentCheckpoint> stored = provider.getCheckpoints(agent);
                    assertThat(stored)
                            .extracting(AgentCheckpoint::version)
                            .containsExactlyElementsOf(java.util.stream.LongStream.range(0, count)
                                    .boxed()
                                    .toList());
                    for (AgentCheckpoint checkpoint : stored) {
                        long version = checkpoint.version();
                        String id = "t" + (version % threads) + "-" + version;
                        assertThat(checkpoint)
                                .isEqualTo(checkpoint(agent, version, id, "thread " + (version % threads)));
                        assertThat(provider.getCheckpoint(agent, id)).contains(checkpoint);
                    }
                }
            }
            Path directory = LayoutInspection.agentDirectory(root, agent);
            Path journal = directory.resolve(FileNames.JOURNAL_FILE);
            System.out.printf("round %s: %s%n", round, Files.exists(journal) ? "journal" : "files");
            if (Files.exists(journal)) {
                assertThat(checkpointFiles(directory))
                        .as("round %s: kept as a journal", round)
                        .isEmpty();
                assertThat(LayoutInspection.idEntries(root, agent)).isEmpty();
                var records = JournalFiles.checkpoints(journal);
                assertThat(records).hasSize(count);
                assertThat(new HashSet<>(records.stream()
                                .map(JournalFiles.Rec::checkpointId)
                                .toList()))
                        .hasSize(count);
            } else {
                assertThat(checkpointFiles(directory))
                        .as("round %s: kept as files", round)
                        .hasSize(count);
                assertThat(LayoutInspection.idEntries(root, agent)).hasSize(count);
            }
            assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
        }
    }

    @Test
    void theSameIdAtTwoVersionsFromBothFormsHasExactlyOneWinner() throws Exception {
        for (int round = 0; round < 20; round++) {
            String agent = "contested-" + round;
            boolean existing = round % 2 == 1; // odd rounds: the agent has a checkpoint already (kept as a journal)
            try (var journals = FileStorage.builder(root).build();
                    var files = FilePerCheckpoint.provider(root)) {
                if (existing) {
                    journals.saveCheckpoint(agent, checkpoint(agent, 0));
                }
                var barrier = new CyclicBarrier(2);
                var fromJournal = checkpoint(agent, 10, "same", "journal");
                var fromFiles = checkpoint(agent, 11, "same", "files");
                var a = CompletableFuture.supplyAsync(() -> attempt(barrier, journals, fromJournal));
                var b = CompletableFuture.supplyAsync(() -> attempt(barrier, files, fromFiles));
                Object outcomeA = a.get(60, TimeUnit.SECONDS);
                Object outcomeB = b.get(60, TimeUnit.SECONDS);
                var outcomes = List.of(outcomeA, outcomeB);
                assertThat(outcomes)
                        .as("round %s", round)
                        .filteredOn("won"::equals)
                        .hasSize(1);
                assertThat(outcomes)
                        .as("round %s", round)
                        .filteredOn(CheckpointConflictException.class::isInstance)
                        .hasSize(1);
                var winner = outcomeA.equals("won") ? fromJournal : fromFiles;
                for (var provider : List.of(journals, files)) {
                    assertThat(provider.getCheckpoint(agent, "same")).contains(winner);
                    assertThat(provider.getLatestCheckpoint(agent)).contains(winner);
                    assertThat(provider.getCheckpoints(agent)).hasSize(existing ? 2 : 1);
                }
            }
        }
    }

    private static Object attempt(CyclicBarrier barrier, StorageShell provider, AgentCheckpoint checkpoint) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
            provider.saveCheckpoint(checkpoint.agentId(), checkpoint);
            return "won";
        } catch (CheckpointConflictException e) {
            return e;
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static List<String> checkpointFiles(Path directory) {
        return LayoutInspection.names(directory).stream()
                .filter(name -> name.endsWith(FileNames.CHECKPOINT_SUFFIX))
                .toList();
    }
}
