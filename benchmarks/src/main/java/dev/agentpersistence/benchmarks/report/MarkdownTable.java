package dev.agentpersistence.benchmarks.report;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table built row by row. */
final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    MarkdownTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.length);
        }
        rows.add(List.of(cells));
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void appendTo(StringBuilder out) {
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        out.append("|").append("---|".repeat(header.size())).append('\n');
        for (List<String> row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        out.append('\n');
    }
}
