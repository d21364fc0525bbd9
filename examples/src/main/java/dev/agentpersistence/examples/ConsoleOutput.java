package dev.agentpersistence.examples;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Standard output in UTF-8 whatever the platform default, so the examples print the same everywhere. */
public final class ConsoleOutput {
    private ConsoleOutput() {}

    /** A UTF-8 stream over the process's standard output, flushing every line. Do not close it. */
    public static PrintStream utf8() {
        return new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    }
}
