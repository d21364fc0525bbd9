package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers that share nothing but the directory — two provider instances, and two processes —
 * never both win a version or an id.
 */
class CrossProcessRaceTest {
    static final int VERSIONS = 120;

    @TempDir
    Path root;
    @TempDir
    Path signals;

    @Test
    void twoInstancesOverOneDirectory() throws Exception {
        var outcomes = new ConcurrentHashMap<String, Set<Integer>>();
        try (var first = RacingWriter.open(root); var second = RacingWriter.open(root)) {
            RacingWriter.warmUp(first, "first");
            RacingWriter.warmUp(second, "second");
            long start = System.currentTimeMillis() + 100;
            var a = CompletableFuture.runAsync(() -> race(first, "first", start, outcomes));
            var b = CompletableFuture.runAsync(() -> race(second, "second", start, outcomes));
            CompletableFuture.allOf(a, b).get(120, TimeUnit.SECONDS);
        }
        verify(outcomes.get("first"), outcomes.get("second"), "first", "second");
    }

    @Test
    void twoProcessesOverOneDirectory() throws Exception {
        Path ready = signals.resolve("ready");
        Path go = signals.resolve("go");
        try (var child = ChildJvm.start(RacingWriter.class, root.toString(), "child",
                String.valueOf(VERSIONS), ready.toString(), go.toString())) {
            var parentWins = new TreeSet<Integer>();
            try (var provider = RacingWriter.open(root)) {
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
            assertThat(child.waitFor(Duration.ofSeconds(120))).as("child exit: %s", child.output()).isZero();
            var childWins = new TreeSet<Integer>();
            for (String line : child.lines()) {
                if (line.startsWith("won ")) {
                    childWins.add(Integer.parseInt(line.substring(4)));
                }
            }
            verify(parentWins, childWins, "parent", "child");
        }
    }

    private static void race(FileStorageProvider provider, String writer, long start,
                             ConcurrentHashMap<String, Set<Integer>> outcomes) {
        Set<Integer> wins = new TreeSet<>();
        RacingWriter.race(provider, writer, VERSIONS, start, line -> {
            if (line.startsWith("won ")) {
                wins.add(Integer.parseInt(line.substring(4)));
            }
        });
        outcomes.put(writer, wins);
    }

    private void verify(Set<Integer> winsA, Set<Integer> winsB, String writerA, String writerB) throws Exception {
        var overlap = new TreeSet<>(winsA);
        overlap.retainAll(winsB);
        assertThat(overlap).as("versions both writers won").isEmpty();
        assertThat(winsA.size() + winsB.size()).as("every version has a winner").isEqualTo(VERSIONS);
        System.out.printf("%s won %d versions, %s won %d%n", writerA, winsA.size(), writerB, winsB.size());

        try (var provider = FilePerCheckpoint.provider(root)) {
            List<AgentCheckpoint> stored = provider.getCheckpoints(RacingWriter.AGENT);
            assertThat(stored).hasSize(VERSIONS);
            var ids = new ArrayList<String>();
            for (AgentCheckpoint checkpoint : stored) {
                int version = (int) checkpoint.version();
                String winner = winsA.contains(version) ? writerA : writerB;
                assertThat(checkpoint.metadata()).as("version %s", version).containsEntry("writer", winner);
                assertThat(checkpoint.checkpointId()).isEqualTo(RacingWriter.id(version, winner));
                assertThat(provider.getCheckpoint(RacingWriter.AGENT, checkpoint.checkpointId())).contains(checkpoint);
                ids.add(checkpoint.checkpointId());
            }
            assertThat(LayoutInspection.idEntries(root, RacingWriter.AGENT)).containsExactlyInAnyOrderElementsOf(ids);
        }
        Path directory = LayoutInspection.agentDirectory(root, RacingWriter.AGENT);
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
    }
}
