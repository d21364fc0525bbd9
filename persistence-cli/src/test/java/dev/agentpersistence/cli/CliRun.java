package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.cli.internal.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/** One in-process run of the command line: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = PersistenceCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    JsonNode json() {
        try {
            return Json.MAPPER.readTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + out, e);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
