package dev.agentpersistence.cli;

import picocli.CommandLine.Option;

/** The options every command takes: output form and error detail. */
public final class CommonOptions {
    @Option(names = "--json", description = "Print one JSON document (or JSON Lines where noted) instead of tables.")
    boolean json;

    @Option(
            names = {"-v", "--verbose"},
            description = "On failure, print the stack trace too.")
    boolean verbose;

    /** Whether output is JSON. */
    public boolean json() {
        return json;
    }

    /** Whether failures print their stack trace. */
    public boolean verbose() {
        return verbose;
    }
}
