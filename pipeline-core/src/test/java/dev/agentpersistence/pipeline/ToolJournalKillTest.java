package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead tool journal across real crashes: a run whose nodes write rows to a SQLite table through tools is
 * SIGKILLed at a random point after a random number of its tool calls, in {@value #ROUNDS} child JVMs one after the
 * other, each resuming the run the previous one left; a last child finishes it. The table then holds exactly the rows
 * of the attempts the run committed (three per node, each once), nothing of the attempts that were cut off.
 */
class ToolJournalKillTest {
    private static final int ROUNDS = 20;
    private static final String RUN_ID = "journal-kill-run";

    @TempDir
    Path tmp;

    @Test
    @Timeout(300)
    void killedAttemptsLeaveNoRowsAndCompletedAttemptsLeaveTheirRowsOnce() throws Exception {
        Path checkpoints = tmp.resolve("checkpoints.db");
        Path effects = tmp.resolve("effects.db");
        var random = new Random();
        long started = System.nanoTime();
        int killedAfterCalls = 0;
        int recovered = 0;
        int undone = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            var child = start(checkpoints, effects);
            int calls = 1 + random.nextInt(4);
            boolean reached = child.awaitLines("CALL ", calls, Duration.ofSeconds(60));
            Thread.sleep(random.nextInt(8));
            child.kill();
            assertThat(child.lines()).as("round %d", round).noneMatch(l -> l.startsWith("RESULT"));
            assertThat(reached)
                    .as("round %d reached %d tool calls: %s", round, calls, child.lines())
                    .isTrue();
            killedAfterCalls++;
            recovered += (int) child.lines().stream()
                    .filter(l -> l.startsWith("RECOVERED"))
                    .count();
            undone += child.lines().stream()
                    .filter(l -> l.startsWith("RECOVERED"))
                    .mapToInt(l -> Integer.parseInt(l.split(" ")[3]))
                    .sum();
        }
        var last = start(checkpoints, effects);
        assertThat(last.waitFor(Duration.ofSeconds(120))).as(last.output()).isZero();
        assertThat(last.lines()).anyMatch(l -> l.startsWith("RESULT COMPLETED"));

        assertThat(killedAfterCalls).isEqualTo(ROUNDS);
        assertThat(recovered).as("cut-off attempts recovered").isGreaterThan(0);
        assertThat(undone).as("tool calls undone by recoveries").isGreaterThan(0);

        var expected = new ArrayList<EffectsTable.Row>();
        try (var storage = PersistenceStorageProviders.load(
                "jdbc", ProviderConfig.of(Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + checkpoints)))) {
            for (AgentCheckpoint checkpoint : storage.getCheckpoints(Pipeline.storedRunId(RUN_ID))) {
                String attempts = checkpoint.metadata().get("pipeline.attempts");
                if (checkpoint.isTombstone()
                        || Pipeline.START_NODE_ID.equals(checkpoint.nodeId())
                        || checkpoint.metadata().containsKey("pipeline.claimed")) { // a resumed runner's claim
                    continue;
                }
                for (int call = 1; call <= JournalChildMain.CALLS; call++) {
                    expected.add(new EffectsTable.Row(checkpoint.nodeId(), Integer.parseInt(attempts), call));
                }
            }
        }
        assertThat(expected).hasSize(JournalChildMain.NODES * JournalChildMain.CALLS);
        assertThat(new HashSet<>(expected)).hasSameSizeAs(expected);
        System.out.println("FIGURES tool journal kill test: " + ROUNDS + " SIGKILLs, " + recovered
                + " cut-off attempts recovered, " + undone + " tool calls undone, " + expected.size()
                + " rows of committed attempts; " + (System.nanoTime() - started) / 1_000_000 + " ms");
        try (var table = new EffectsTable(effects)) {
            assertThat(table.rows())
                    .as("rows of committed attempts, each once, none of cut-off attempts")
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** A child JVM running {@link JournalChildMain} on the run. */
    private static ChildJvm start(Path checkpoints, Path effects) throws IOException {
        return ChildJvm.start(
                JournalChildMain.class,
                List.of(
                        "-Xmx128m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xshare:auto",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                checkpoints.toString(),
                effects.toString(),
                RUN_ID);
    }
}
