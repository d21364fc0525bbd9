package dev.agentpersistence.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * The shared markdown document of the write-up's writer agents: a {@code CURRENT_AGENT:} line, the sections the agents
 * write, and a {@code # HANDOFF LOG} where each agent records completion.
 */
final class Docs {
    static final String FILE = "doc.md";
    static final String LOG_HEADING = "# HANDOFF LOG";

    private Docs() {}

    /** The document before any agent ran. */
    static String initial() {
        return "CURRENT_AGENT: overview-writer\n\n" + LOG_HEADING + "\n";
    }

    static String read(FileWorkspace ws) {
        return ws.read(FILE);
    }

    static String currentAgent(String doc) {
        for (String line : doc.split("\n")) {
            if (line.startsWith("CURRENT_AGENT:")) {
                return line.substring("CURRENT_AGENT:".length()).strip();
            }
        }
        return null;
    }

    static String withCurrentAgent(String doc, String agent) {
        var lines = new ArrayList<>(List.of(doc.split("\n", -1)));
        lines.replaceAll(line -> line.startsWith("CURRENT_AGENT:") ? "CURRENT_AGENT: " + agent : line);
        return String.join("\n", lines);
    }

    /** Inserts a section before the handoff log. */
    static String withSection(String doc, String section) {
        int log = doc.indexOf(LOG_HEADING);
        return doc.substring(0, log) + section.strip() + "\n\n" + doc.substring(log);
    }

    static String withLogEntry(String doc, String entry) {
        return doc + "- " + entry + "\n";
    }

    static boolean logged(String doc, String agent) {
        int log = doc.indexOf(LOG_HEADING);
        return log >= 0 && doc.substring(log).contains("- " + agent + ": done");
    }

    /** A {@code # Core Concepts} section with {@code count} concept blocks, each with three levels and a code block. */
    static String concepts(int count) {
        var text = new StringBuilder("# Core Concepts\n\n");
        for (int i = 1; i <= count; i++) {
            text.append("## Concept ")
                    .append(i)
                    .append(": checkpoint part ")
                    .append(i)
                    .append("\n\n")
                    .append("### Easy\nA save point.\n\n")
                    .append("### Normal\nState saved after a node.\n\n")
                    .append("### Expert\nVersioned, conflict-checked snapshot.\n\n")
                    .append("```java\npersistence.createCheckpoint(ctx, \"node-")
                    .append(i)
                    .append("\", null, null);\n```\n\n");
        }
        return text.toString();
    }

    /** Concept headings lacking one of the Easy/Normal/Expert subsections. */
    static List<String> conceptsMissingLevels(String doc) {
        var missing = new ArrayList<String>();
        String[] blocks = doc.split("\n(?=## Concept)");
        for (String block : blocks) {
            if (!block.startsWith("## Concept")) {
                continue;
            }
            String heading = block.lines().findFirst().orElse("");
            for (String level : List.of("### Easy", "### Normal", "### Expert")) {
                if (!block.contains(level)) {
                    missing.add("`" + heading + "` lacks `" + level + "`");
                }
            }
        }
        return missing;
    }
}
