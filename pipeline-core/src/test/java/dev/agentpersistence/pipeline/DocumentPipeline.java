package dev.agentpersistence.pipeline;

import java.nio.file.Path;
import java.util.List;

/**
 * The write-up's document pipeline: overview-writer, concepts-writer and visualization-writer editing one markdown
 * document in a {@link FileWorkspace}, each with the pre- and postconditions of the write-up's table.
 */
final class DocumentPipeline {
    static final String NAME = "document-writer";
    static final List<String> AGENTS = List.of("overview-writer", "concepts-writer", "visualization-writer");

    private DocumentPipeline() {}

    /** A builder with the three nodes; add storage, listeners and policies, then build. */
    static Pipeline.Builder<FileWorkspace> builder(Path workspace, ScriptedModel model, Path journal, Path hangMarker) {
        return Pipeline.builder(NAME, FileWorkspace.codec(workspace))
                .node(Node.<FileWorkspace>builder("overview-writer")
                        .precondition(currentAgentIs("overview-writer"))
                        .postcondition(Conditions.markdownSectionPresent(Docs::read, "# Overview"))
                        .postcondition(currentAgentIs("concepts-writer"))
                        .postcondition(handoffLogged("overview-writer"))
                        .action(new WriterAgent("overview-writer", "concepts-writer", model, journal, hangMarker))
                        .build())
                .node(Node.<FileWorkspace>builder("concepts-writer")
                        .precondition(Conditions.markdownSectionPresent(Docs::read, "# Overview"))
                        .postcondition(Conditions.markdownSectionPresent(Docs::read, "# Core Concepts"))
                        .postcondition(Conditions.countBetween(
                                "concept blocks",
                                ws -> Conditions.countMarkdownHeadings(Docs.read(ws), "## Concept"),
                                3,
                                5))
                        .postcondition(Condition.of("concept levels", ws -> Docs.conceptsMissingLevels(Docs.read(ws))))
                        .postcondition(Conditions.balancedCodeFences(Docs::read))
                        .postcondition(currentAgentIs("visualization-writer"))
                        .postcondition(handoffLogged("concepts-writer"))
                        .action(new WriterAgent("concepts-writer", "visualization-writer", model, journal, hangMarker))
                        .build())
                .node(Node.<FileWorkspace>builder("visualization-writer")
                        .precondition(Conditions.markdownSectionPresent(Docs::read, "# Core Concepts"))
                        .postcondition(Conditions.of(
                                "visualization component",
                                ws -> ws.exists("visualization.mmd"),
                                ws -> "visualization component `visualization.mmd` missing"))
                        .postcondition(Conditions.markdownSectionPresent(Docs::read, "# Visualization"))
                        .postcondition(currentAgentIs("done"))
                        .postcondition(handoffLogged("visualization-writer"))
                        .action(new WriterAgent("visualization-writer", "done", model, journal, hangMarker))
                        .build());
    }

    static Pipeline.Builder<FileWorkspace> builder(Path workspace, ScriptedModel model) {
        return builder(workspace, model, null, null);
    }

    /** Creates the workspace holding the initial document. */
    static FileWorkspace newWorkspace(Path directory) {
        FileWorkspace ws = FileWorkspace.at(directory);
        ws.write(Docs.FILE, Docs.initial());
        return ws;
    }

    private static Condition<FileWorkspace> currentAgentIs(String agent) {
        return Conditions.fieldEquals("CURRENT_AGENT", ws -> Docs.currentAgent(Docs.read(ws)), agent);
    }

    private static Condition<FileWorkspace> handoffLogged(String agent) {
        return Conditions.of(
                "handoff log",
                ws -> Docs.logged(Docs.read(ws), agent),
                ws -> "HANDOFF LOG has no completion record of " + agent);
    }
}
