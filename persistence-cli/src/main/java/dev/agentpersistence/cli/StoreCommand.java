package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Progress;
import dev.agentpersistence.cli.internal.Store;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command over one store: opens it from {@link StoreOptions}, runs, closes it, and returns the exit code. Output goes
 * to the command line's writer, so tests run commands in-process.
 */
abstract class StoreCommand implements Callable<Integer>, Verbosity {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    StoreOptions store;

    @Override
    public final Integer call() {
        try (Store opened = store.open(writes())) {
            return run(opened);
        }
    }

    /** Whether this command writes to its store; every other command opens it read-only. */
    boolean writes() {
        return false;
    }

    /** Runs over the open store; returns the exit code. */
    abstract int run(Store store);

    @Override
    public boolean verbose() {
        return common.verbose();
    }

    /** Whether output is JSON. */
    boolean json() {
        return common.json();
    }

    /** Standard output. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Progress on standard error: redrawn in place on a terminal, plain lines otherwise. */
    Progress progress() {
        return new Progress(spec.commandLine().getErr(), System.console() != null, System::nanoTime);
    }

    /** Prints one JSON document on one line. */
    void printJson(JsonNode node) {
        out().println(Json.line(node));
        out().flush();
    }
}
