package dev.agentpersistence.cli.internal;

import dev.agentpersistence.cli.CliException;
import java.io.IOException;
import java.io.Reader;
import java.util.Objects;

/**
 * Reads text line by line, as {@link java.io.BufferedReader#readLine()} does (a line ends at {@code \n}, {@code \r} or
 * {@code \r\n}), but never holds more than a bound of characters: a longer line is refused when the bound is passed,
 * before the rest of it is read, so a huge or endless line cannot exhaust memory.
 */
public final class BoundedLines {
    private final Reader in;
    private final long maxLength;
    private final String source;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;
    private boolean afterCarriageReturn;
    private long lineNumber;

    /** Lines of {@code in} (named {@code source} in errors) of at most {@code maxLength} characters each. */
    public BoundedLines(Reader in, long maxLength, String source) {
        this.in = Objects.requireNonNull(in, "in");
        this.source = Objects.requireNonNull(source, "source");
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be positive but was " + maxLength);
        }
        this.maxLength = maxLength;
    }

    /** The number of the line last returned, from 1. */
    public long lineNumber() {
        return lineNumber;
    }

    /**
     * The next line without its terminator, or {@code null} at the end of the input.
     *
     * @throws CliException (usage) when the line is longer than the bound
     */
    public String next() throws IOException {
        var line = new StringBuilder();
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (!any) {
                        return null;
                    }
                    lineNumber++;
                    return line.toString();
                }
            }
            char c = buffer[position++];
            if (afterCarriageReturn) {
                afterCarriageReturn = false;
                if (c == '\n') {
                    continue;
                }
            }
            any = true;
            if (c == '\n' || c == '\r') {
                afterCarriageReturn = c == '\r';
                lineNumber++;
                return line.toString();
            }
            if (line.length() >= maxLength) {
                throw CliException.usage(source + " line " + (lineNumber + 1) + " is longer than " + maxLength
                        + " characters (the store's agent.persistence.max-checkpoint-size and the line's envelope);"
                        + " the lines before it were read, nothing after");
            }
            line.append(c);
        }
    }
}
