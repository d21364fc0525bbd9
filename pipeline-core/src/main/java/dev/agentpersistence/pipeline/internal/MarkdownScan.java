package dev.agentpersistence.pipeline.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** Line-level markdown reading for conditions: which lines are prose and which are inside code fences. */
public final class MarkdownScan {
    private MarkdownScan() {}

    /** The text's lines, with line breaks ({@code \n}, {@code \r\n}) removed. */
    public static List<String> lines(String text) {
        return List.of(text.split("\r?\n", -1));
    }

    /** The lines outside fenced code blocks; an unclosed fence hides the rest of the text. */
    public static List<String> proseLines(String text) {
        var prose = new ArrayList<String>();
        Fence open = null;
        for (String line : lines(text)) {
            if (open == null) {
                Fence fence = Fence.parse(line);
                if (fence != null) {
                    open = fence;
                } else {
                    prose.add(line);
                }
            } else if (open.closedBy(line)) {
                open = null;
            }
        }
        return prose;
    }

    /** The 1-based line number of a fence that is opened and never closed. */
    public static OptionalInt unclosedFenceLine(String text) {
        Fence open = null;
        int openedAt = 0;
        int number = 0;
        for (String line : lines(text)) {
            number++;
            if (open == null) {
                Fence fence = Fence.parse(line);
                if (fence != null) {
                    open = fence;
                    openedAt = number;
                }
            } else if (open.closedBy(line)) {
                open = null;
            }
        }
        return open == null ? OptionalInt.empty() : OptionalInt.of(openedAt);
    }

    /** A code fence opener: {@code ```} or {@code ~~~} (three or more), indented by at most three spaces. */
    private record Fence(char marker, int length) {
        static Fence parse(String line) {
            int indent = 0;
            while (indent < line.length() && line.charAt(indent) == ' ') {
                indent++;
            }
            if (indent > 3 || indent >= line.length()) {
                return null;
            }
            char marker = line.charAt(indent);
            if (marker != '`' && marker != '~') {
                return null;
            }
            int end = indent;
            while (end < line.length() && line.charAt(end) == marker) {
                end++;
            }
            int length = end - indent;
            if (length < 3 || (marker == '`' && line.indexOf('`', end) >= 0)) {
                return null;
            }
            return new Fence(marker, length);
        }

        boolean closedBy(String line) {
            Fence other = parse(line);
            return other != null
                    && other.marker == marker
                    && other.length >= length
                    && line.strip().length() == other.length;
        }
    }
}
