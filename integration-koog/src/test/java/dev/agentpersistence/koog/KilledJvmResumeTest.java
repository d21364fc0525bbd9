package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.jdbc.JdbcStorageProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JVM restart: a child JVM runs the Koog agent over a SQLite file and is killed (SIGKILL) while
 * the draft node runs; this JVM resumes the session from the checkpoint the plan node left and
 * finishes it, without running the plan node again.
 */
class KilledJvmResumeTest {
    private static final String SESSION = "survives-a-kill";
    private static final String INPUT = "annual report";

    @TempDir
    Path dir;

    private static JdbcStorageProvider open(Path db) {
        return JdbcStorageProvider.create(JdbcStorageConfig.custom().url("jdbc:sqlite:" + db).build());
    }

    /** Child JVM: {@code <database> <marker>}. Never returns on its own: the draft node hangs until killed. */
    public static void main(String[] args) {
        try (var provider = open(Path.of(args[0]))) {
            WriterAgent.create(KoogCheckpointStorage.of(provider), new ScriptedExecutor(),
                    WriterAgent.hangAfterWriting(Path.of(args[1]))).run(INPUT, SESSION);
        }
    }

    @Test
    void aSessionKilledInTheDraftNodeResumesInANewJvm() throws Exception {
        Path db = dir.resolve("koog.db");
        Path marker = dir.resolve("in-draft");
        Path output = dir.resolve("child.log");
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KilledJvmResumeTest.class.getName(), db.toString(),
                marker.toString()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(marker)) {
                assertThat(child.isAlive()).as("child still running; its output:%n%s", Files.exists(output)
                        ? Files.readString(output) : "").isTrue();
                assertThat(System.nanoTime()).as("child reached the draft node within 60 s").isLessThan(deadline);
                Thread.sleep(20);
            }
        } finally {
            child.destroyForcibly(); // SIGKILL
            child.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);

        try (var provider = open(db)) {
            assertThat(provider.getCheckpoints("koog:" + SESSION)).extracting(AgentCheckpoint::nodeId)
                    .containsExactly("writer/writer/plan");
            var executor = new ScriptedExecutor();

            String result = WriterAgent.create(KoogCheckpointStorage.of(provider), executor).run(INPUT, SESSION);

            assertThat(result).isEqualTo(WriterAgent.expectedOutput(INPUT));
            assertThat(executor.requests("plan: " + INPUT)).as("plan was not run again").isZero();
            var records = provider.getCheckpoints("koog:" + SESSION);
            assertThat(records).extracting(AgentCheckpoint::nodeId).containsExactly("writer/writer/plan",
                    "writer/writer/draft", "writer/writer/review", AgentCheckpoint.TOMBSTONE_NODE_ID);
            assertThat(records.get(2).messageHistory()).hasSize(7);
        }
    }
}
