package dev.agentpersistence.examples.demo;

import dev.agentpersistence.pipeline.Condition;
import dev.agentpersistence.pipeline.Conditions;
import dev.agentpersistence.pipeline.FileWorkspace;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The write-up's document pipeline: three writer agents fill one markdown document in a {@link FileWorkspace}, each
 * guarded by preconditions (what the previous agent must have done) and postconditions (what this agent must have
 * done):
 *
 * <table>
 *   <caption>Conditions</caption>
 *   <tr><th>agent</th><th>preconditions</th><th>postconditions</th></tr>
 *   <tr><td>overview-writer</td><td>CURRENT_AGENT is overview-writer</td>
 *       <td>{@code # Overview} with text; CURRENT_AGENT is concepts-writer; handoff logged</td></tr>
 *   <tr><td>concepts-writer</td><td>{@code # Overview} present</td>
 *       <td>{@code # Core Concepts}; 3-5 concept blocks; Easy/Normal/Expert in each; code fences closed;
 *       CURRENT_AGENT is visualization-writer; handoff logged</td></tr>
 *   <tr><td>visualization-writer</td><td>{@code # Core Concepts} present</td>
 *       <td>{@code visualization.mmd} is a flowchart; {@code # Visualization} links it; code fences
 *       closed; CURRENT_AGENT is done; handoff logged</td></tr>
 * </table>
 */
public final class DocumentPipeline {
    /** The pipeline's name (stored in its checkpoints). */
    public static final String NAME = "document-writer";

    public static final String OVERVIEW_WRITER = "overview-writer";
    public static final String CONCEPTS_WRITER = "concepts-writer";
    public static final String VISUALIZATION_WRITER = "visualization-writer";
    /** The agents in the order they run. */
    public static final List<String> AGENTS = List.of(OVERVIEW_WRITER, CONCEPTS_WRITER, VISUALIZATION_WRITER);
    /** The value of CURRENT_AGENT once every agent is done. */
    public static final String DONE = "done";

    private static final String CURRENT_AGENT = "CURRENT_AGENT";
    private static final Function<FileWorkspace, String> DOC = ws -> ws.read(MarkdownDocument.FILE);

    private DocumentPipeline() {}

    /**
     * A builder with the three nodes over the workspace in {@code workspaceDirectory}; add storage (and listeners, a
     * meter registry) and build.
     */
    public static Pipeline.Builder<FileWorkspace> builder(
            Path workspaceDirectory, WriterModel model, CrashSwitch crash) {
        var builder = Pipeline.builder(NAME, FileWorkspace.codec(workspaceDirectory));
        for (int i = 0; i < AGENTS.size(); i++) {
            String agent = AGENTS.get(i);
            String next = i + 1 < AGENTS.size() ? AGENTS.get(i + 1) : DONE;
            builder.node(Node.<FileWorkspace>builder(agent)
                    .preconditions(preconditions(agent))
                    .postconditions(postconditions(agent))
                    .action(new WriterAgent(agent, next, model, crash))
                    .build());
        }
        return builder;
    }

    /** Creates (or resets) the workspace in {@code directory} with the initial document. */
    public static FileWorkspace newWorkspace(Path directory) {
        FileWorkspace workspace = FileWorkspace.at(directory);
        workspace.files().forEach(workspace::delete);
        workspace.write(MarkdownDocument.FILE, MarkdownDocument.initial(OVERVIEW_WRITER));
        return workspace;
    }

    /** The preconditions of {@code agent}'s node. */
    public static List<Condition<FileWorkspace>> preconditions(String agent) {
        return switch (agent) {
            case OVERVIEW_WRITER -> List.of(currentAgentIs(OVERVIEW_WRITER));
            case CONCEPTS_WRITER -> List.of(Conditions.markdownSectionPresent(DOC, "# Overview"));
            case VISUALIZATION_WRITER -> List.of(Conditions.markdownSectionPresent(DOC, "# Core Concepts"));
            default -> throw new IllegalArgumentException("unknown agent " + agent);
        };
    }

    /** The postconditions of {@code agent}'s node. */
    public static List<Condition<FileWorkspace>> postconditions(String agent) {
        var conditions = new ArrayList<Condition<FileWorkspace>>();
        switch (agent) {
            case OVERVIEW_WRITER -> {
                conditions.add(Conditions.markdownSectionPresent(DOC, "# Overview"));
                conditions.add(Conditions.of(
                        "overview text",
                        ws -> MarkdownDocument.sectionBody(DOC.apply(ws), "# Overview")
                                        .length()
                                >= 80,
                        ws -> "`# Overview` needs at least 80 characters of text"));
                conditions.add(currentAgentIs(CONCEPTS_WRITER));
            }
            case CONCEPTS_WRITER -> {
                conditions.add(Conditions.markdownSectionPresent(DOC, "# Core Concepts"));
                conditions.add(Conditions.countBetween(
                        "concept blocks",
                        ws -> MarkdownDocument.conceptBlocks(DOC.apply(ws)).size(),
                        3,
                        5));
                conditions.add(
                        Condition.of("concept levels", ws -> MarkdownDocument.conceptsMissingLevels(DOC.apply(ws))));
                conditions.add(Conditions.balancedCodeFences(DOC));
                conditions.add(currentAgentIs(VISUALIZATION_WRITER));
            }
            case VISUALIZATION_WRITER -> {
                conditions.add(Conditions.of(
                        "visualization component",
                        ws -> ws.readIfExists(MarkdownDocument.VISUALIZATION_FILE)
                                .filter(text -> text.startsWith("flowchart"))
                                .isPresent(),
                        ws -> "visualization component `" + MarkdownDocument.VISUALIZATION_FILE
                                + "` missing or not a flowchart"));
                conditions.add(Conditions.markdownSectionPresent(DOC, "# Visualization"));
                conditions.add(Conditions.of(
                        "visualization link",
                        ws -> MarkdownDocument.sectionBody(DOC.apply(ws), "# Visualization")
                                .contains(MarkdownDocument.VISUALIZATION_FILE),
                        ws -> "`# Visualization` does not reference `" + MarkdownDocument.VISUALIZATION_FILE + "`"));
                conditions.add(Conditions.balancedCodeFences(DOC));
                conditions.add(currentAgentIs(DONE));
            }
            default -> throw new IllegalArgumentException("unknown agent " + agent);
        }
        conditions.add(Conditions.of(
                "handoff log",
                ws -> MarkdownDocument.handedOff(DOC.apply(ws), agent),
                ws -> "HANDOFF LOG has no completion record of " + agent));
        return List.copyOf(conditions);
    }

    /**
     * What the finished document must satisfy: every agent's postconditions, except that CURRENT_AGENT is checked once,
     * for {@value #DONE} (each agent hands over, so the earlier agents' CURRENT_AGENT postconditions held only right
     * after them).
     */
    public static List<Condition<FileWorkspace>> finalDocumentConditions() {
        var conditions = new ArrayList<Condition<FileWorkspace>>();
        for (String agent : AGENTS) {
            postconditions(agent).stream()
                    .filter(c -> !c.name().equals(CURRENT_AGENT))
                    .forEach(conditions::add);
        }
        conditions.add(currentAgentIs(DONE));
        return List.copyOf(conditions);
    }

    private static Condition<FileWorkspace> currentAgentIs(String agent) {
        return Conditions.fieldEquals(
                CURRENT_AGENT,
                ws -> MarkdownDocument.currentAgent(DOC.apply(ws)).orElse(null),
                agent);
    }
}
