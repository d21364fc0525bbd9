package dev.agentpersistence.pipeline;

import dev.agentpersistence.pipeline.ScriptedModel.Mode;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs the document pipeline on the file provider in its own JVM, for {@link KillResumeTest}. Arguments:
 * {@code hang|resume <workspace> <checkpoint dir> <journal> <hang marker>}. In {@code hang} mode the concepts-writer
 * writes part of its section, creates the marker and hangs until the JVM is killed; in {@code resume} mode every agent
 * works and the result is printed as one {@code RESULT ...} line.
 */
public final class ResumeChildMain {
    static final String RUN_ID = "killed-run";

    private ResumeChildMain() {}

    public static void main(String[] args) {
        String mode = args[0];
        Path workspace = Path.of(args[1]);
        Path checkpoints = Path.of(args[2]);
        Path journal = Path.of(args[3]);
        Path marker = Path.of(args[4]);
        var model = "hang".equals(mode)
                ? new ScriptedModel(Map.of("concepts-writer", Mode.HANGS))
                : ScriptedModel.allCorrect();
        try (var storage = Storages.file(checkpoints)) {
            var pipeline = DocumentPipeline.builder(workspace, model, journal, marker)
                    .storage(storage)
                    .build();
            var result = pipeline.run(RUN_ID, FileWorkspace.at(workspace));
            System.out.println("RESULT " + result.status() + " executed=" + result.executedNodes()
                    + " resumedAfter=" + result.resumedAfter().orElse("-")
                    + " alreadyCompleted=" + result.alreadyCompleted());
        }
    }
}
