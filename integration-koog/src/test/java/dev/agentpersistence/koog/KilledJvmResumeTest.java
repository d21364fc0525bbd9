package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JVM restart: a child JVM runs the Koog agent over a SQLite file and is killed (SIGKILL) while the draft node
 * runs; this JVM resumes the session from the checkpoint the plan node left and finishes it, without running the plan
 * node again.
 */
class KilledJvmResumeTest {
    private static final String SESSION = "survives-a-kill";
    private static final String INPUT = "annual report";

    @TempDir
    Path dir;

    private static StorageShell open(Path db) {
        return JdbcStorage.builder(
                        JdbcStorageConfig.custom().url("jdbc:sqlite:" + db).build())
                .build();
    }

    /** Child JVM: {@code <database> <marker>}. Never returns on its own: the draft node hangs until killed. */
    public static void main(String[] args) {
        try (var provider = open(Path.of(args[0]))) {
            WriterAgent.create(
                            KoogCheckpointStorage.of(provider),
                            new ScriptedExecutor(),
                            WriterAgent.hangAfterWriting(Path.of(args[1])))
                    .run(INPUT, SESSION);
        }
    }

    @Test
    void aSessionKilledInTheDraftNodeResumesInANewJvm() throws Exception {
        Path db = dir.resolve("koog.db");
        Path marker = dir.resolve("in-draft");
        try (var child = ChildJvm.start(KilledJvmResumeTest.class, db.toString(), marker.toString())) {
            child.awaitFile(marker, Duration.ofSeconds(60));
            assertThat(child.kill()).as("killed by SIGKILL").isEqualTo(137);
        }

        try (var provider = open(db)) {
            assertThat(provider.getCheckpoints("@koog/" + SESSION))
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactly("writer/writer/plan");
            var executor = new ScriptedExecutor();

            String result = WriterAgent.create(KoogCheckpointStorage.of(provider), executor)
                    .run(INPUT, SESSION);

            assertThat(result).isEqualTo(WriterAgent.expectedOutput(INPUT));
            assertThat(executor.requests("plan: " + INPUT))
                    .as("plan was not run again")
                    .isZero();
            var records = provider.getCheckpoints("@koog/" + SESSION);
            assertThat(records)
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactly(
                            "writer/writer/plan",
                            "writer/writer/draft",
                            "writer/writer/review",
                            AgentCheckpoint.TOMBSTONE_NODE_ID);
            assertThat(records.get(2).messageHistory()).hasSize(7);
        }
    }
}
