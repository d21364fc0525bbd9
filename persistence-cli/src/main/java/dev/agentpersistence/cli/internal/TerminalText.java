package dev.agentpersistence.cli.internal;

/**
 * Stored text made safe to print on a terminal: control characters (C0, DEL, C1) and the invisible characters that
 * reorder or split lines (bidirectional overrides and isolates, line and paragraph separators) are shown as escapes
 * ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}, …), so stored ids, metadata, messages and tool names cannot move
 * the cursor, recolour, retitle or rewrite what the command prints. Every printed value of the command line passes
 * here.
 */
public final class TerminalText {
    private TerminalText() {}

    /** {@code text} with every control character escaped; {@code null} prints as "-". */
    public static String escape(String text) {
        if (text == null) {
            return "-";
        }
        if (text.codePoints().noneMatch(TerminalText::unsafe)) {
            return text;
        }
        var escaped = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(c -> {
            if (!unsafe(c)) {
                escaped.appendCodePoint(c);
            } else if (c == '\n') {
                escaped.append("\\n");
            } else if (c == '\r') {
                escaped.append("\\r");
            } else if (c == '\t') {
                escaped.append("\\t");
            } else {
                escaped.append(String.format(java.util.Locale.ROOT, "\\u%04x", c));
            }
        });
        return escaped.toString();
    }

    /** {@code text} on one line: line breaks and tabs become one space, other control characters escapes. */
    public static String oneLine(String text) {
        return escape(text == null ? null : text.replaceAll("[\\r\\n\\t]+", " "));
    }

    private static boolean unsafe(int c) {
        return Character.getType(c) == Character.CONTROL
                || c == 0x2028
                || c == 0x2029
                || c == 0x061c
                || c == 0x200e
                || c == 0x200f
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }
}
