package dev.agentpersistence.examples.demo;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.examples.ConsoleOutput;
import dev.agentpersistence.examples.ExampleCommands;
import dev.agentpersistence.examples.ExampleFiles;
import dev.agentpersistence.examples.StorageSelection;
import dev.agentpersistence.pipeline.Condition;
import dev.agentpersistence.pipeline.FileWorkspace;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineResult;
import dev.agentpersistence.pipeline.Violation;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main demo: three writer agents (overview-writer, concepts-writer, visualization-writer) fill a markdown document,
 * checkpointed after every agent.
 *
 * <ol>
 *   <li>Run 1: concepts-writer breaks a rule (7 concept blocks, 3-5 allowed), its attempt is rolled back and retried
 *       with feedback, and passes; then the process "crashes" while visualization-writer is writing
 *       ({@link SimulatedCrash}).
 *   <li>Run 2, as a restarted process (storage reopened, same run id): claims the run (a copy of its newest checkpoint
 *       saved right after it, so no second runner could save after that checkpoint too), resumes after concepts-writer,
 *       so only visualization-writer runs.
 *   <li>The run's checkpoint history as a table, and the final document checked against every postcondition.
 * </ol>
 *
 * Every invocation starts the run from scratch: it deletes the run's earlier checkpoints first (stored as
 * {@link Pipeline#storedRunId}, and under the raw run id where earlier versions stored runs).
 */
@Command(
        name = "document-pipeline-demo",
        mixinStandardHelpOptions = true,
        description = "Runs the document-writing pipeline with a rule violation, a rollback, a retry with "
                + "feedback, a crash and a resume, and prints the checkpoint history.")
public final class DocumentPipelineDemo implements Callable<Integer> {

    @Option(
            names = "--storage",
            paramLabel = "<storage>",
            description =
                    "Where checkpoints go: jdbc:<url> (e.g. jdbc:postgresql://127.0.0.1:5432/test?user=postgres), "
                            + "file:<dir>, redis://host:port, s3://bucket[/prefix][?endpoint=...], jsonl:<dir>. "
                            + "Default: embedded SQLite in <examples dir>/demo/checkpoints.db.")
    private String storage;

    @Option(
            names = "--run-id",
            paramLabel = "<id>",
            defaultValue = "doc-1",
            description = "The run's id, under which its checkpoints are stored (default: ${DEFAULT-VALUE}).")
    private String runId;

    @Option(
            names = "--workspace",
            paramLabel = "<dir>",
            description = "The directory holding the document (default: <examples dir>/demo/workspace).")
    private Path workspace;

    /** Runs the demo; exits with 1 when it did not end with a complete, valid document. */
    public static void main(String[] args) {
        ExampleCommands.run(new DocumentPipelineDemo(), args);
    }

    @Override
    public Integer call() {
        StorageSelection selection = storage == null
                ? StorageSelection.sqlite(ExampleFiles.path("demo/checkpoints.db"))
                : StorageSelection.parse(storage);
        Path directory = workspace == null ? ExampleFiles.path("demo/workspace") : workspace.toAbsolutePath();
        Outcome outcome = run(selection, directory, runId, ConsoleOutput.utf8());
        return outcome.succeeded() ? 0 : 1;
    }

    /**
     * What the demo did.
     *
     * @param removedEarlier checkpoints of an earlier demo run deleted at the start
     * @param crashed whether run 1 ended in the simulated crash
     * @param resumed the result of run 2
     * @param history the run's checkpoints at the end, ascending
     * @param finalViolations what the final document breaks of {@link DocumentPipeline#finalDocumentConditions()}
     * @param conceptsPrompts the prompts concepts-writer's model session received in run 1
     */
    public record Outcome(
            int removedEarlier,
            boolean crashed,
            PipelineResult<FileWorkspace> resumed,
            List<AgentCheckpoint> history,
            List<Violation> finalViolations,
            List<String> conceptsPrompts) {
        /** Whether the run completed after the resume with a document that breaks no rule. */
        public boolean succeeded() {
            return crashed && resumed.isCompleted() && finalViolations.isEmpty();
        }
    }

    /** Runs the demo over {@code storage} with the document in {@code workspaceDirectory}, printing to {@code out}. */
    public static Outcome run(StorageSelection storage, Path workspaceDirectory, String runId, PrintStream out) {
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(workspaceDirectory, "workspaceDirectory");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(out, "out");
        out.println("agent-persistence demo: three writer agents fill one markdown document");
        out.println("  storage    " + storage);
        out.println("  document   " + workspaceDirectory.resolve(MarkdownDocument.FILE));

        int removed;
        boolean crashed = false;
        ScriptedWriterModel model = ScriptedWriterModel.demo();
        try (PersistenceStorageProvider<CheckpointFilter> provider = storage.open()) {
            removed = deleteEarlierRun(provider, runId);
            out.println("  run id     " + runId
                    + (removed == 0 ? "" : " (" + removed + " checkpoints of an earlier demo run deleted)"));
            out.println();
            out.println("Run 1: concepts-writer breaks a rule, then the process crashes in visualization-writer");
            FileWorkspace document = DocumentPipeline.newWorkspace(workspaceDirectory);
            var pipeline = DocumentPipeline.builder(
                            workspaceDirectory, model, CrashSwitch.once(DocumentPipeline.VISUALIZATION_WRITER))
                    .storage(provider)
                    .listener(new ProgressPrinter(out))
                    .build();
            try {
                var result = pipeline.run(runId, document);
                out.println("  the run ended without the planned crash: " + result);
            } catch (SimulatedCrash crash) {
                crashed = true;
                out.printf("  %-21s CRASH: %s%n", DocumentPipeline.VISUALIZATION_WRITER, crash.getMessage());
                out.println("  " + MarkdownDocument.FILE + " is left half written: "
                        + (document.read(MarkdownDocument.FILE).contains("# Visualization")
                                ? "it has '# Visualization' but no handoff"
                                : "unchanged"));
            }
        }

        out.println();
        out.println("Run 2: a new process opens the storage again and runs the same run id");
        PipelineResult<FileWorkspace> result;
        List<AgentCheckpoint> history;
        try (PersistenceStorageProvider<CheckpointFilter> provider = storage.open()) {
            var pipeline = DocumentPipeline.builder(workspaceDirectory, ScriptedWriterModel.demo(), CrashSwitch.off())
                    .storage(provider)
                    .listener(new ProgressPrinter(out))
                    .build();
            result = pipeline.run(runId, FileWorkspace.at(workspaceDirectory));
            out.println("  nodes run: " + result.executedNodes() + ", skipped: "
                    + DocumentPipeline.AGENTS.subList(
                            0,
                            DocumentPipeline.AGENTS.size()
                                    - result.executedNodes().size()));
            history = provider.getCheckpoints(Pipeline.storedRunId(runId));
        }

        out.println();
        out.println("Checkpoint history of run " + runId + " (stored as " + Pipeline.storedRunId(runId) + ")");
        HistoryTable.lines(history).forEach(out::println);

        var violations = new ArrayList<Violation>();
        List<Condition<FileWorkspace>> conditions = DocumentPipeline.finalDocumentConditions();
        for (Condition<FileWorkspace> condition : conditions) {
            violations.addAll(condition.check(result.state()));
        }
        out.println();
        String doc = result.state().read(MarkdownDocument.FILE);
        out.println("Final document: " + MarkdownDocument.conceptBlocks(doc).size() + " concepts, "
                + (violations.isEmpty()
                        ? "passes all " + conditions.size() + " postconditions"
                        : "VIOLATES " + violations));
        out.println("  " + result.state().root().resolve(MarkdownDocument.FILE) + " and "
                + MarkdownDocument.VISUALIZATION_FILE);
        out.println("Other backends: --storage file:<dir> | jdbc:postgresql://host/db?user=u | redis://host:6379 | "
                + "s3://bucket");
        return new Outcome(
                removed,
                crashed,
                result,
                history,
                List.copyOf(violations),
                model.prompts(DocumentPipeline.CONCEPTS_WRITER));
    }

    /**
     * Deletes the checkpoints of an earlier demo run of {@code runId}: those in the runs' namespace, and those an
     * earlier version stored under the raw run id (which the pipeline would otherwise continue).
     */
    private static int deleteEarlierRun(PersistenceStorageProvider<CheckpointFilter> provider, String runId) {
        int removed = provider.deleteCheckpoints(Pipeline.storedRunId(runId));
        if (!AgentNamespace.isReserved(runId)) {
            removed += provider.deleteCheckpoints(runId);
        }
        return removed;
    }
}
