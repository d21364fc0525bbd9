package dev.agentpersistence.examples.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The document the writer agents share, as in the write-up: a {@code CURRENT_AGENT:} line naming whose turn it is, the
 * sections the agents write, and a {@code # HANDOFF LOG} at the end where each agent records that it finished. Pure
 * functions over the markdown text.
 */
public final class MarkdownDocument {
    /** The document's file name in the workspace. */
    public static final String FILE = "doc.md";
    /** The visualization component the last agent generates. */
    public static final String VISUALIZATION_FILE = "visualization.mmd";
    /** The heading of the handoff log. */
    public static final String HANDOFF_LOG = "# HANDOFF LOG";

    private static final String CURRENT_AGENT = "CURRENT_AGENT:";

    private MarkdownDocument() {}

    /** The document before any agent ran: the first agent's turn and an empty handoff log. */
    public static String initial(String firstAgent) {
        return CURRENT_AGENT + " " + firstAgent + "\n\n" + HANDOFF_LOG + "\n";
    }

    /** Whose turn it is, or empty when the line is missing. */
    public static Optional<String> currentAgent(String doc) {
        return doc.lines()
                .filter(line -> line.startsWith(CURRENT_AGENT))
                .map(line -> line.substring(CURRENT_AGENT.length()).strip())
                .findFirst();
    }

    /** The document with {@code CURRENT_AGENT} set to {@code agent}. */
    public static String withCurrentAgent(String doc, String agent) {
        var lines = new ArrayList<>(List.of(doc.split("\n", -1)));
        lines.replaceAll(line -> line.startsWith(CURRENT_AGENT) ? CURRENT_AGENT + " " + agent : line);
        return String.join("\n", lines);
    }

    /** The document with {@code section} inserted before the handoff log. */
    public static String withSection(String doc, String section) {
        int log = doc.indexOf(HANDOFF_LOG);
        if (log < 0) {
            throw new IllegalArgumentException("document has no " + HANDOFF_LOG);
        }
        return doc.substring(0, log) + section.strip() + "\n\n" + doc.substring(log);
    }

    /** The document with one more handoff log line: {@code - <agent>: done}. */
    public static String withHandoff(String doc, String agent) {
        return doc + "- " + agent + ": done\n";
    }

    /** Whether the handoff log records that {@code agent} finished. */
    public static boolean handedOff(String doc, String agent) {
        int log = doc.indexOf(HANDOFF_LOG);
        return log >= 0 && doc.substring(log).lines().anyMatch(line -> line.equals("- " + agent + ": done"));
    }

    /** The text between {@code heading} and the next top-level heading, stripped; empty when absent. */
    public static String sectionBody(String doc, String heading) {
        var body = new StringBuilder();
        boolean inside = false;
        for (String line : doc.split("\n")) {
            if (line.startsWith("# ")) {
                if (inside) {
                    break;
                }
                inside = line.strip().equals(heading);
                continue;
            }
            if (inside) {
                body.append(line).append('\n');
            }
        }
        return body.toString().strip();
    }

    /** The concept blocks ({@code ## Concept ...} with their text) of the document. */
    public static List<String> conceptBlocks(String doc) {
        var blocks = new ArrayList<String>();
        for (String part : doc.split("\n(?=## Concept)")) {
            if (part.startsWith("## Concept")) {
                int end = part.indexOf("\n# ");
                blocks.add(end < 0 ? part : part.substring(0, end));
            }
        }
        return blocks;
    }

    /** Concept blocks lacking one of the Easy / Normal / Expert explanations, as violation messages. */
    public static List<String> conceptsMissingLevels(String doc) {
        var missing = new ArrayList<String>();
        for (String block : conceptBlocks(doc)) {
            String heading = block.lines().findFirst().orElse("").strip();
            for (String level : List.of("### Easy", "### Normal", "### Expert")) {
                if (block.lines().noneMatch(line -> line.strip().equals(level))) {
                    missing.add("`" + heading + "` lacks `" + level + "`");
                }
            }
        }
        return missing;
    }
}
