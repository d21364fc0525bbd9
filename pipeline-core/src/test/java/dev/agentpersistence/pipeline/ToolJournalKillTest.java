package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead tool journal across real crashes: a run whose nodes write rows to a SQLite table
 * through tools is SIGKILLed at a random point after a random number of its tool calls, in
 * {@value #ROUNDS} child JVMs one after the other, each resuming the run the previous one left; a
 * last child finishes it. The table then holds exactly the rows of the attempts the run committed
 * (three per node, each once), nothing of the attempts that were cut off.
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
            var child = Child.start(checkpoints, effects);
            int calls = 1 + random.nextInt(4);
            boolean reached = child.awaitLines("CALL ", calls);
            Thread.sleep(random.nextInt(8));
            child.kill();
            assertThat(child.lines()).as("round %d", round).noneMatch(l -> l.startsWith("RESULT"));
            assertThat(reached).as("round %d reached %d tool calls: %s", round, calls, child.lines()).isTrue();
            killedAfterCalls++;
            recovered += (int) child.lines().stream().filter(l -> l.startsWith("RECOVERED")).count();
            undone += child.lines().stream().filter(l -> l.startsWith("RECOVERED"))
                    .mapToInt(l -> Integer.parseInt(l.split(" ")[3])).sum();
        }
        var last = Child.start(checkpoints, effects);
        assertThat(last.waitFor()).as(String.join("\n", last.lines())).isZero();
        assertThat(last.lines()).anyMatch(l -> l.startsWith("RESULT COMPLETED"));

        assertThat(killedAfterCalls).isEqualTo(ROUNDS);
        assertThat(recovered).as("cut-off attempts recovered").isGreaterThan(0);
        assertThat(undone).as("tool calls undone by recoveries").isGreaterThan(0);

        var expected = new ArrayList<EffectsTable.Row>();
        try (var storage = PersistenceStorageProviders.load("jdbc",
                ProviderConfig.of(Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + checkpoints)))) {
            for (AgentCheckpoint checkpoint : storage.getCheckpoints(RUN_ID)) {
                String attempts = checkpoint.metadata().get("pipeline.attempts");
                if (checkpoint.isTombstone() || Pipeline.START_NODE_ID.equals(checkpoint.nodeId())) {
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
            assertThat(table.rows()).as("rows of committed attempts, each once, none of cut-off attempts")
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** A child JVM running {@link JournalChildMain}, its output collected line by line. */
    private static final class Child {
        private final Process process;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final Thread reader;

        private Child(Process process) {
            this.process = process;
            this.reader = new Thread(this::drain, "journal-child-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(Path checkpoints, Path effects) throws IOException {
            var command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC", "-Xshare:auto", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    JournalChildMain.class.getName(), checkpoints.toString(), effects.toString(), RUN_ID);
            return new Child(new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        /** Waits until {@code count} lines start with {@code prefix}; false when the child ended first. */
        boolean awaitLines(String prefix, int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                if (lines.stream().filter(l -> l.startsWith(prefix)).count() >= count) {
                    return true;
                }
                if (!process.isAlive() && !reader.isAlive()) {
                    return false;
                }
                Thread.sleep(1);
            }
            return false;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            reader.join(10_000);
        }

        int waitFor() throws InterruptedException {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("child did not finish:\n" + String.join("\n", lines));
            }
            reader.join(10_000);
            return process.exitValue();
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        private void drain() {
            try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // closed when the process is killed; the lines read so far stay
            }
        }
    }
}
