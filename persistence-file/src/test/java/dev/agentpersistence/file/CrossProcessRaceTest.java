package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers that share nothing but the directory — two provider instances, and two processes — never both win a version
 * or an id, whether the agent is kept as a journal or as one file per checkpoint.
 */
class CrossProcessRaceTest {
    static final int VERSIONS = 120;

    @TempDir
    Path root;

    @TempDir
    Path signals;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"files", "journal"})
    void twoInstancesOverOneDirectory(String form) throws Exception {
        boolean journal = form.equals("journal");
        var outcomes = new ConcurrentHashMap<String, Set<Integer>>();
        try (var first = RacingWriter.open(root, journal);
                var second = RacingWriter.open(root, journal)) {
            RacingWriter.warmUp(first, "first");
            RacingWriter.warmUp(second, "second");
            long start = System.currentTimeMillis() + 100;
            var a = CompletableFuture.runAsync(() -> race(first, "first", start, outcomes));
            var b = CompletableFuture.runAsync(() -> race(second, "second", start, outcomes));
            CompletableFuture.allOf(a, b).get(120, TimeUnit.SECONDS);
        }
        verify(outcomes.get("first"), outcomes.get("second"), "first", "second", journal);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"files", "journal"})
    void twoProcessesOverOneDirectory(String form) throws Exception {
        boolean journal = form.equals("journal");
        Path ready = signals.resolve("ready");
        Path go = signals.resolve("go");
        try (var child = ChildJvm.start(
                RacingWriter.class,
                root.toString(),
                "child",
                String.valueOf(VERSIONS),
                ready.toString(),
                go.toString(),
                form)) {
            var parentWins = new TreeSet<Integer>();
            try (var provider = RacingWriter.open(root, journal)) {
                RacingWriter.warmUp(provider, "parent");
                child.awaitFile(ready, Duration.ofSeconds(60));
                long start = System.currentTimeMillis() + 300;
                Path signal = signals.resolve("go.tmp");
                Files.writeString(signal, Long.toString(start));
                Files.move(signal, go, StandardCopyOption.ATOMIC_MOVE);
                RacingWriter.race(provider, "parent", VERSIONS, start, line -> {
                    if (line.startsWith("won ")) {
                        parentWins.add(Integer.parseInt(line.substring(4)));
                    }
                });
            }
            assertThat(child.waitFor(Duration.ofSeconds(120)))
                    .as("child exit: %s", child.output())
                    .isZero();
            var childWins = new TreeSet<Integer>();
            for (String line : child.lines()) {
                if (line.startsWith("won ")) {
                    childWins.add(Integer.parseInt(line.substring(4)));
                }
            }
            verify(parentWins, childWins, "parent", "child", journal);
        }
    }

    private static void race(
            StorageShell provider, String writer, long start, ConcurrentHashMap<String, Set<Integer>> outcomes) {
        Set<Integer> wins = new TreeSet<>();
        RacingWriter.race(provider, writer, VERSIONS, start, line -> {
            if (line.startsWith("won ")) {
                wins.add(Integer.parseInt(line.substring(4)));
            }
        });
        outcomes.put(writer, wins);
    }

    private void verify(Set<Integer> winsA, Set<Integer> winsB, String writerA, String writerB, boolean journal)
            throws Exception {
        var overlap = new TreeSet<>(winsA);
        overlap.retainAll(winsB);
        assertThat(overlap).as("versions both writers won").isEmpty();
        assertThat(winsA.size() + winsB.size()).as("every version has a winner").isEqualTo(VERSIONS);
        System.out.printf("%s won %d versions, %s won %d%n", writerA, winsA.size(), writerB, winsB.size());

        Path directory = LayoutInspection.agentDirectory(root, RacingWriter.AGENT);
        try (var provider = FilePerCheckpoint.provider(root);
                var journals = FileStorage.builder(root).build()) {
            assertThat(journals.getCheckpoints(RacingWriter.AGENT))
                    .isEqualTo(provider.getCheckpoints(RacingWriter.AGENT));
            List<AgentCheckpoint> stored = provider.getCheckpoints(RacingWriter.AGENT);
            assertThat(stored).hasSize(VERSIONS);
            var ids = new ArrayList<String>();
            for (AgentCheckpoint checkpoint : stored) {
                int version = (int) checkpoint.version();
                String winner = winsA.contains(version) ? writerA : writerB;
                assertThat(checkpoint.metadata()).as("version %s", version).containsEntry("writer", winner);
                assertThat(checkpoint.checkpointId()).isEqualTo(RacingWriter.id(version, winner));
                assertThat(provider.getCheckpoint(RacingWriter.AGENT, checkpoint.checkpointId()))
                        .contains(checkpoint);
                ids.add(checkpoint.checkpointId());
            }
            if (journal) {
                var records = JournalFiles.checkpoints(directory.resolve(FileNames.JOURNAL_FILE));
                assertThat(records).extracting(JournalFiles.Rec::checkpointId).containsExactlyInAnyOrderElementsOf(ids);
                assertThat(records).allMatch(JournalFiles.Rec::intact);
                assertThat(LayoutInspection.names(directory))
                        .noneMatch(name -> name.endsWith(FileNames.CHECKPOINT_SUFFIX));
            } else {
                assertThat(directory.resolve(FileNames.JOURNAL_FILE)).doesNotExist();
                assertThat(LayoutInspection.idEntries(root, RacingWriter.AGENT))
                        .containsExactlyInAnyOrderElementsOf(ids);
            }
        }
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
    }
}
