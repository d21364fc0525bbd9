package dev.agentpersistence.cli.internal;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A table of text printed with aligned columns; numbers right-aligned. */
public final class TextTable {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    /** A table with these column headers. */
    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; {@code null} cells print as "-". */
    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + headers.size());
        }
        rows.add(Arrays.stream(cells)
                .map(cell -> cell == null ? "-" : oneLine(cell.toString()))
                .toList());
        return this;
    }

    /** Whether no row was added. */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Prints the header and the rows. */
    public void print(PrintWriter out) {
        Objects.requireNonNull(out, "out");
        int[] widths = new int[headers.size()];
        boolean[] numeric = new boolean[headers.size()];
        for (int column = 0; column < widths.length; column++) {
            widths[column] = headers.get(column).length();
            numeric[column] = !rows.isEmpty();
            for (List<String> row : rows) {
                widths[column] = Math.max(widths[column], row.get(column).length());
                numeric[column] &= row.get(column).matches("-?[\\d.,]+( ?[KMG]?i?B)?|-");
            }
        }
        print(out, headers, widths, new boolean[widths.length]);
        for (List<String> row : rows) {
            print(out, row, widths, numeric);
        }
        out.flush();
    }

    /** A byte count for people: 512 B, 3.4 KiB, 1.2 MiB. */
    public static String bytes(long count) {
        if (count < 1024) {
            return count + " B";
        }
        double value = count;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    private static void print(PrintWriter out, List<String> cells, int[] widths, boolean[] rightAligned) {
        var line = new StringBuilder();
        for (int column = 0; column < widths.length; column++) {
            String cell = cells.get(column);
            String pad = " ".repeat(widths[column] - cell.length());
            boolean last = column == widths.length - 1;
            line.append(rightAligned[column] ? pad + cell : last ? cell : cell + pad);
            if (!last) {
                line.append("  ");
            }
        }
        out.println(line);
    }

    private static String oneLine(String text) {
        return TerminalText.oneLine(text);
    }
}
