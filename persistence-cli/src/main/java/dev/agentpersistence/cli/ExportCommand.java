package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Exporter;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code export}: the selected checkpoints as JSON Lines in the documented export format, streamed. */
@Command(
        name = "export",
        description = "Write checkpoints (all, or by --agent and time) as JSON Lines in the export format "
                + "(docs/export-format.schema.json), streamed page by page.")
final class ExportCommand extends StoreCommand {
    @Mixin
    SelectionOptions selection;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write to FILE (default standard output).")
    Path output;

    @Override
    int run(Store store) {
        var progress = progress();
        Exporter.Summary summary;
        if (output == null) {
            summary = Exporter.export(store, selection.selection(), out(), Instant.now(), progress);
        } else {
            try (Writer writer =
                    new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8))) {
                summary = Exporter.export(store, selection.selection(), writer, Instant.now(), progress);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + output + ": " + e.getMessage(), e);
            }
            if (json()) {
                var json = Json.object();
                json.put("file", output.toString());
                json.put("checkpoints", summary.checkpoints());
                json.put("agents", summary.agents());
                json.put("sha256", summary.sha256());
                printJson(json);
            } else {
                out().println("exported " + summary.checkpoints() + " checkpoints of " + summary.agents()
                        + " agents to " + output + " (sha256 " + summary.sha256() + ")");
                out().flush();
            }
        }
        return ExitCode.OK;
    }
}
