package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.tck.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run killed mid-node (the JVM dies) resumes at that node with the state of the last checkpoint, in a new JVM,
 * without rerunning finished nodes; then the completed run is reported as completed in-process without running
 * anything.
 */
class KillResumeTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    @Timeout(180)
    void runKilledInsideANodeResumesThereInANewJvmWithoutRerunningFinishedNodes() throws Exception {
        Path workspace = tmp.resolve("workspace");
        Path checkpoints = tmp.resolve("checkpoints");
        Path journal = tmp.resolve("journal.log");
        Path marker = tmp.resolve("hanging.marker");
        DocumentPipeline.newWorkspace(workspace);

        try (var hanging = start("hang", workspace, checkpoints, journal, marker)) {
            hanging.awaitFile(marker, WAIT);
            assertThat(Docs.read(FileWorkspace.at(workspace))).contains("PARTIAL WORK OF concepts-writer");
            hanging.kill();
        }
        assertThat(Files.readAllLines(journal))
                .containsExactly("overview-writer attempt 1", "concepts-writer attempt 1");

        var resumed = start("resume", workspace, checkpoints, journal, marker);
        int exit = resumed.waitFor(WAIT);
        String output = resumed.output();
        assertThat(exit).as(output).isZero();
        assertThat(output)
                .contains("RESULT COMPLETED executed=[concepts-writer, visualization-writer] "
                        + "resumedAfter=overview-writer alreadyCompleted=false");

        assertThat(Files.readAllLines(journal))
                .containsExactly(
                        "overview-writer attempt 1",
                        "concepts-writer attempt 1",
                        "concepts-writer attempt 1",
                        "visualization-writer attempt 1");
        String doc = Docs.read(FileWorkspace.at(workspace));
        assertThat(doc).doesNotContain("PARTIAL WORK").contains("CURRENT_AGENT: done");
        assertThat(doc.split("# Overview", -1)).hasSize(2);
        assertThat(Conditions.countMarkdownHeadings(doc, "## Concept")).isEqualTo(4);

        var model = ScriptedModel.allCorrect();
        try (var storage = Storages.file(checkpoints)) {
            var result = DocumentPipeline.builder(workspace, model)
                    .storage(storage)
                    .build()
                    .run(ResumeChildMain.RUN_ID, FileWorkspace.at(workspace));
            assertThat(result.isCompleted()).isTrue();
            assertThat(result.alreadyCompleted()).isTrue();
            assertThat(result.executedNodes()).isEmpty();
            assertThat(Docs.read(result.state())).isEqualTo(doc);
            assertThat(storage.getCheckpoints(Pipeline.storedRunId(ResumeChildMain.RUN_ID)))
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactly(
                            Pipeline.START_NODE_ID,
                            "overview-writer",
                            "overview-writer", // the resumed run's claim: a copy of the newest checkpoint
                            "concepts-writer",
                            "visualization-writer",
                            AgentCheckpoint.TOMBSTONE_NODE_ID);
        }
        DocumentPipeline.AGENTS.forEach(agent -> assertThat(model.calls(agent)).isZero());
    }

    private static ChildJvm start(String mode, Path workspace, Path checkpoints, Path journal, Path marker)
            throws IOException {
        return ChildJvm.start(
                ResumeChildMain.class,
                List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
                mode,
                workspace.toString(),
                checkpoints.toString(),
                journal.toString(),
                marker.toString());
    }
}
