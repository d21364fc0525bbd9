package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Importer;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code import}: saves the checkpoints of an export file into the store; running it again completes an interrupted
 * import.
 */
@Command(
        name = "import",
        description = "Save the checkpoints of an export file into the store, checking its end line "
                + "(count and SHA-256). Idempotent: run it again to complete an interrupted import.")
final class ImportCommand extends StoreCommand {
    @Option(
            names = {"-i", "--input"},
            paramLabel = "FILE",
            description = "Read FILE (default standard input).")
    Path input;

    @Override
    boolean writes() {
        return true;
    }

    @Override
    int run(Store store) {
        Importer.Summary summary;
        try (BufferedReader reader = input == null
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            summary =
                    Importer.importFrom(reader, input == null ? "standard input" : input.toString(), store, progress());
        } catch (NoSuchFileException e) {
            throw CliException.notFound("no file " + input);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + input + ": " + e.getMessage(), e);
        }
        if (json()) {
            var json = Json.object();
            json.put("checkpoints", summary.checkpoints());
            json.put("agents", summary.agents());
            json.put("imported", summary.saved());
            json.put("alreadyThere", summary.alreadyThere());
            printJson(json);
        } else {
            out().println("imported " + summary.saved() + " checkpoints of " + summary.agents() + " agents into "
                    + store.description() + " (" + summary.alreadyThere() + " already there)");
            out().flush();
        }
        return ExitCode.OK;
    }
}
